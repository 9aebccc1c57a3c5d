package io.signalbox.controlplane.fleet;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.StreamEvent;
import io.signalbox.store.StreamEvent.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * The fleet as it was at one time, from the stream history and the epoch log: what each stream
 * held then, the epoch being served then and how many held it, and who held one resource version
 * ({@code signalbox fleet --at T --holding ROUTE/greeter@<version>}).
 *
 * <p>A stream holds, of a type, what the response it last ACKed gave it: that response's snapshot
 * epoch {@code K} has the type as it was last changed at or before {@code K}. So it holds epoch
 * {@code S}'s content of the type when the type did not change between them; a NACK changes
 * nothing it holds (the client keeps its last accepted config), and neither does a response it
 * has not answered yet. It holds epoch {@code S} when it does so for every type it was sent.
 *
 * @param epoch the newest epoch created at or before {@code at}, 0 if none
 * @param clients the streams open at {@code at}
 * @param converged how many of them held {@code epoch}
 * @param holding who held the resource version asked for, or null when none was asked for
 */
public record FleetAt(Instant at, long epoch, int clients, int converged, Holders holding, List<Held> streams) {

  /**
   * One stream at that time.
   *
   * @param epoch the newest epoch whose content it held for every type, 0 if none retained (or
   *     nothing ACKed yet)
   * @param types per type: what it last ACKed, and its response in flight or NACK after that
   */
  public record Held(String nodeId, String replicaId, long streamId, long epoch, boolean converged,
      Map<String, TypeHeld> types) {}

  /**
   * @param ackedEpoch the snapshot epoch of the response it last ACKed (0: none yet)
   * @param pendingEpoch a response sent after that and not yet answered, 0 if none
   * @param nack a NACK after that ACK (the client kept what it held), or null
   */
  public record TypeHeld(long ackedEpoch, String ackedVersion, Instant ackedAt, long pendingEpoch, Nack nack) {}

  public record Nack(long epoch, String version, Instant at, String message, List<String> resources) {}

  /**
   * @param clients the streams that held {@code name} at {@code version}, by node id
   * @param refused the streams that were sent that version and NACKed it, still holding their own
   */
  public record Holders(String type, String name, String version, List<String> clients, List<String> refused) {}

  /** {@code TYPE/name@version}, as {@code --holding} takes it. */
  public record Resource(XdsType type, String name, String version) {

    /** The resource, or a message saying what is wrong with {@code text}. */
    public static Optional<Resource> parse(String text, StringBuilder problem) {
      int slash = text.indexOf('/');
      int at = text.lastIndexOf('@');
      if (slash <= 0 || at <= slash + 1 || at == text.length() - 1) {
        problem.append("must be TYPE/name@version (e.g. ROUTE/greeter@3a9f...), was '").append(text).append("'");
        return Optional.empty();
      }
      String type = text.substring(0, slash);
      for (XdsType t : XdsType.ORDERED) {
        if (t.name().equalsIgnoreCase(type)) {
          return Optional.of(new Resource(t, text.substring(slash + 1, at), text.substring(at + 1)));
        }
      }
      problem.append("type must be one of CLUSTER, ENDPOINT, LISTENER, ROUTE, was '").append(type).append("'");
      return Optional.empty();
    }
  }

  /**
   * @param latest the newest event of each stream, type and kind at or before {@code at}
   *     ({@code StreamHistory#latestAt})
   * @param epochs the epoch log, newest first
   * @param snapshots the stored snapshot of an epoch, or null once it is pruned
   * @param asks whether a stream asks for a resource (type, name) at all: its subscription, as the
   *     client status rows say; a wildcard asks for everything
   */
  public static FleetAt of(Instant at, List<StreamEvent> latest, List<EpochRecord> epochs, LongFunction<Snapshot> snapshots,
      Subscriptions asks, Resource holding) {
    Map<Long, Optional<Snapshot>> loaded = new HashMap<>();
    LongFunction<Snapshot> snapshot = e -> loaded.computeIfAbsent(e, x -> Optional.ofNullable(snapshots.apply(x)))
        .orElse(null);
    List<Long> published = epochs.stream().filter(r -> !r.createdAt().isAfter(at)).map(EpochRecord::epoch)
        .sorted(Comparator.reverseOrder()).toList();
    long served = published.isEmpty() ? 0 : published.get(0);

    Map<String, Map<String, Map<Kind, StreamEvent>>> byStream = new TreeMap<>();
    for (StreamEvent e : latest) {
      byStream.computeIfAbsent(e.streamKey(), k -> new TreeMap<>())
          .computeIfAbsent(e.type(), k -> new java.util.EnumMap<>(Kind.class)).put(e.kind(), e);
    }
    List<Held> streams = new ArrayList<>();
    List<String> holders = new ArrayList<>();
    List<String> refusers = new ArrayList<>();
    for (Map<String, Map<Kind, StreamEvent>> types : byStream.values()) {
      if (types.containsKey("")) {
        continue; // closed by then
      }
      StreamEvent any = types.values().iterator().next().values().iterator().next();
      Map<String, TypeHeld> held = new LinkedHashMap<>();
      types.forEach((type, kinds) -> held.put(type, typeHeld(kinds)));
      long epoch = heldEpoch(held, published, snapshot);
      streams.add(new Held(any.nodeId(), any.replicaId(), any.streamId(), epoch, epoch == served && served > 0, held));
      if (holding != null) {
        TypeHeld t = held.get(holding.type().name());
        if (t != null && asks.asks(any, holding.type(), holding.name())) {
          if (matches(holding, versionHeld(t, holding, snapshot))) {
            holders.add(any.nodeId());
          }
          if (t.nack() != null && t.nack().resources().contains(holding.name())
              && matches(holding, versionIn(snapshot.apply(t.nack().epoch()), holding))) {
            refusers.add(any.nodeId());
          }
        }
      }
    }
    streams.sort(Comparator.comparing(Held::nodeId).thenComparing(Held::replicaId).thenComparingLong(Held::streamId));
    int converged = (int) streams.stream().filter(Held::converged).count();
    Holders who = holding == null ? null : new Holders(holding.type().name(), holding.name(), holding.version(),
        holders.stream().sorted().toList(), refusers.stream().sorted().toList());
    return new FleetAt(at, served, streams.size(), converged, who, List.copyOf(streams));
  }

  /** Whether a stream asks for a resource: what {@code --holding} counts among those holding it. */
  @FunctionalInterface
  public interface Subscriptions {
    boolean asks(StreamEvent stream, XdsType type, String name);
  }

  private static TypeHeld typeHeld(Map<Kind, StreamEvent> kinds) {
    StreamEvent ack = kinds.get(Kind.ACK);
    StreamEvent sent = kinds.get(Kind.SENT);
    StreamEvent nack = kinds.get(Kind.NACK);
    Instant acked = ack == null ? Instant.MIN : ack.at();
    boolean pending = sent != null && sent.at().isAfter(acked)
        && (nack == null || nack.at().isBefore(sent.at()));
    Nack lastNack = nack == null || nack.at().isBefore(acked) ? null
        : new Nack(nack.epoch(), nack.version(), nack.at(), nack.message(), nack.resources());
    return new TypeHeld(ack == null ? 0 : ack.epoch(), ack == null ? "" : ack.version(),
        ack == null ? null : ack.at(), pending ? sent.epoch() : 0, lastNack);
  }

  /**
   * The newest published epoch whose content of every type this stream held: a type held from
   * snapshot {@code K} equals epoch {@code S}'s when neither changed it after the other.
   */
  private static long heldEpoch(Map<String, TypeHeld> held, List<Long> published, LongFunction<Snapshot> snapshot) {
    for (long s : published) {
      Snapshot candidate = snapshot.apply(s);
      if (candidate == null) {
        return 0; // older epochs are pruned: not known
      }
      boolean all = true;
      for (Map.Entry<String, TypeHeld> e : held.entrySet()) {
        all &= holds(candidate, XdsType.valueOf(e.getKey()), e.getValue(), snapshot);
      }
      if (all) {
        return s;
      }
    }
    return 0;
  }

  private static boolean holds(Snapshot s, XdsType type, TypeHeld t, LongFunction<Snapshot> snapshot) {
    long k = t.ackedEpoch();
    if (k == 0 || t.ackedVersion().indexOf('.') >= 0) {
      // Nothing ACKed yet, or an offer adjusted around its standing NACK: not any epoch's content.
      return false;
    }
    if (k >= s.epoch()) {
      Snapshot ks = snapshot.apply(k);
      return ks != null && ks.resources(type).versionEpoch() <= s.epoch();
    }
    return s.resources(type).versionEpoch() <= k;
  }

  /** The version of the asked resource this stream held, or null when not known. */
  private static String versionHeld(TypeHeld t, Resource r, LongFunction<Snapshot> snapshot) {
    if (t.ackedEpoch() == 0) {
      return null;
    }
    if (t.ackedVersion().indexOf('.') >= 0) {
      // An offer adjusted around a standing NACK keeps the refused resource at the version held
      // before, which only older events say: "not known" rather than a guess.
      return null;
    }
    return versionIn(snapshot.apply(t.ackedEpoch()), r);
  }

  /** The version asked for, or a prefix of it ({@code signalbox config} shows twelve characters). */
  private static boolean matches(Resource asked, String held) {
    return held != null && held.startsWith(asked.version());
  }

  private static String versionIn(Snapshot s, Resource r) {
    if (s == null) {
      return null;
    }
    TypeResources resources = s.resources(r.type());
    XdsResource resource = resources.get(r.name());
    return resource == null ? null : resource.version();
  }
}
