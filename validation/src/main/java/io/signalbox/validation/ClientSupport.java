package io.signalbox.validation;

import static io.signalbox.validation.ClientKind.ARMERIA;
import static io.signalbox.validation.ClientKind.ENVOY;
import static io.signalbox.validation.ClientKind.GRPC_JAVA;
import static io.signalbox.validation.ClientKind.GRPC_JS;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What each client kind does with each {@link ClientSetting}: the one source of the per-client
 * support table. The warnings ({@link ClientSupportRules}) read it, and {@code ClientSupportDocTest}
 * holds docs/traffic-policy.md's "Support by client" table to it cell by cell.
 *
 * <p>Where the facts come from: grpc-java from its sources and this project's grpc-xds tests
 * (docs/traffic-policy.md's "Support matrix"); grpc-js (@grpc/grpc-js-xds 1.14) and Armeria (xDS
 * module 1.35) from running them against Signalbox (issue 33), and for issue 44's three rows from
 * their sources (grpc-node and Armeria main, 2026); Envoy from its API documentation.
 * A cell nobody observed says {@link Verdict#UNKNOWN} rather than guess, and draws no warning.
 */
public final class ClientSupport {

  /** What a client does when it is sent a setting. */
  public enum Verdict {
    /** It does what the setting says. */
    APPLIED,
    /** It ACKs and behaves as if the setting were absent. */
    IGNORED,
    /** It NACKs the resource and keeps what it had. */
    REJECTED,
    /** Not observed. */
    UNKNOWN;

    /** The table's spelling. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One cell.
   *
   * @param note why, or under which condition, in the table's words; empty when the verdict says it all
   */
  public record Cell(Verdict verdict, String note) {
    public Cell {
      Objects.requireNonNull(verdict, "verdict");
      note = note == null ? "" : note;
    }

    /** As the table prints it: {@code ignored (falls back to round robin)}. */
    public String text() {
      return note.isEmpty() ? verdict.word() : verdict.word() + " (" + note + ")";
    }
  }

  private static final Map<ClientSetting, Map<ClientKind, Cell>> TABLE = new EnumMap<>(ClientSetting.class);

  static {
    String rr = "falls back to round robin, no NACK";
    String noRr = "grpc-js-xds NACKs it without a load_balancing_policy";
    row(ClientSetting.LB_ROUND_ROBIN, applied(""), applied(""), applied(""), applied(""));
    row(ClientSetting.LB_LEAST_REQUEST, applied(""), rejected(noRr), ignored(rr), applied(""));
    row(ClientSetting.LB_RING_HASH, applied(""), applied(""), ignored(rr), applied(""));
    row(ClientSetting.LB_MAGLEV, rejected("unsupported lb policy"), rejected(noRr), ignored(rr), applied(""));
    row(ClientSetting.LB_RANDOM, rejected("unsupported lb policy"), rejected(noRr), ignored(rr), applied(""));
    row(ClientSetting.LB_WEIGHTED_ROUND_ROBIN, applied("ORCA load reports"), applied("ORCA load reports"),
        ignored("balances by its own weighted round robin over endpoint weights"), applied("ORCA load reports"));
    row(ClientSetting.ENDPOINT_WEIGHTS, ignored("round robin and least request treat endpoints alike; ring hash uses them"),
        ignored("round robin treats endpoints alike; ring hash uses them"), applied("weighted round robin"), applied(""));
    row(ClientSetting.LOCALITY_WEIGHTS, applied("always weights localities"), applied("always weights localities"),
        ignored("only with localityLb: LOCALITY_WEIGHTED"), ignored("only with localityLb: LOCALITY_WEIGHTED"));
    row(ClientSetting.HASH_POLICIES, applied("header and channelId"), applied("header"), ignored(rr), applied(""));
    row(ClientSetting.RETRIES, applied("gRPC status conditions, at most 4 retries"), applied("gRPC status conditions"),
        unknown(""), applied(""));
    row(ClientSetting.PRIORITIES, applied("fails over when a priority has no usable endpoint"),
        applied("fails over when a priority has no usable endpoint"), unknown(""), applied("overprovisioning factor"));
    row(ClientSetting.OUTLIER_DETECTION, applied(""), applied(""), unknown(""), applied(""));
    row(ClientSetting.DROP_OVERLOADS, applied("every category, in order"), applied("every category, in order"),
        unknown(""), applied("one category: Signalbox sends it the largest"));
    row(ClientSetting.DNS_ENDPOINTS, unknown(""), rejected("NACKs the assignment"), unknown(""),
        rejected("EDS takes IP addresses only"));
    row(ClientSetting.DRAINING, applied("no new work"), applied("no new work"),
        ignored("treats DRAINING as healthy; Signalbox sends it per drainingAs"), applied("no new work"));
    // grpc-java 1.85 (and its main branch) implements only A76's request-key half: its ring hashes
    // each endpoint's first address. RingHashKeyIT fails the day that changes.
    // grpc-js-xds and Armeria's xDS module from their sources (issue 44): grpc-js-xds reads
    // additional_addresses unless GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS=false (its default is
    // true), its ring hashes each endpoint's address, and it reads no auto_host_rewrite; Armeria
    // reads none of the three (it has no ring hash at all), though it takes Endpoint.hostname as the
    // endpoint's host name.
    row(ClientSetting.ENDPOINT_HASH_KEYS, ignored("places endpoints by address; no flag enables A76 endpoint keys"),
        ignored("places endpoints by address"), ignored(rr), applied("ring hash and Maglev read envoy.lb hash_key"));
    row(ClientSetting.ADDITIONAL_ADDRESSES,
        ignored("uses the primary address; applied with GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS=true"),
        applied("by default; GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS=false turns it off"),
        ignored("uses the primary address"), applied("Happy Eyeballs across the addresses"));
    row(ClientSetting.AUTO_HOST_REWRITE,
        ignored("applied with GRPC_EXPERIMENTAL_XDS_AUTHORITY_REWRITE=true from a server its bootstrap marks "
            + "trusted_xds_server"),
        ignored("not read"), ignored("not read; it takes Endpoint.hostname as the endpoint's host name"),
        applied("Host becomes the endpoint's hostname"));
    // Zone preference is sent as priorities to the clients whose node.locality.zone names a zone, so
    // each kind does what it does with priorities. grpc-java: ZonePreferenceIT. Armeria's xDS module
    // ports Envoy's priority sets (PriorityStateManager), but nobody ran it against Signalbox.
    row(ClientSetting.ZONE_PREFERENCE,
        applied("priority policy: its zone's endpoints until none is usable; zone from its bootstrap's node.locality"),
        applied("priority policy, as for endpoint priorities; zone from its bootstrap's node.locality"),
        unknown("not observed; its xDS module ports Envoy's priority levels"),
        applied("priority levels: spills to the other zones by the overprovisioning factor; zone from --service-zone"));
  }

  private ClientSupport() {}

  /**
   * Whether {@code kind} honours only one EDS {@code drop_overloads} category. Envoy refuses an
   * assignment with more (its EDS update fails: it supports one category), so Signalbox sends such clients
   * one ({@link DropRules#largest}) and warns that it did; grpc-java and grpc-js apply every
   * category in order.
   */
  public static boolean honoursOneDropCategory(ClientKind kind) {
    return kind == ENVOY;
  }

  /** The cell of {@code kind} for {@code setting}; every pair has one. */
  public static Cell of(ClientKind kind, ClientSetting setting) {
    return TABLE.get(setting).get(kind);
  }

  private static void row(ClientSetting setting, Cell grpcJava, Cell grpcJs, Cell armeria, Cell envoy) {
    Map<ClientKind, Cell> cells = new EnumMap<>(ClientKind.class);
    cells.put(GRPC_JAVA, grpcJava);
    cells.put(GRPC_JS, grpcJs);
    cells.put(ARMERIA, armeria);
    cells.put(ENVOY, envoy);
    TABLE.put(setting, cells);
  }

  private static Cell applied(String note) {
    return new Cell(Verdict.APPLIED, note);
  }

  private static Cell ignored(String note) {
    return new Cell(Verdict.IGNORED, note);
  }

  private static Cell rejected(String note) {
    return new Cell(Verdict.REJECTED, note);
  }

  private static Cell unknown(String note) {
    return new Cell(Verdict.UNKNOWN, note.isEmpty() ? "not observed" : note);
  }
}
