package io.signalbox.controlplane.xds;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.ClientSupportRules;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet's side of {@link ClientSupportRules}: the connected clients counted by kind, and the
 * warnings the served snapshot draws from them. Asked by the admin API on every status poll, so
 * the last answer is kept while the snapshot and the counts stay the same.
 */
public final class ClientWarnings {

  /** The last answer: for which snapshot and counts. */
  private record Answer(Snapshot snapshot, Map<ClientKind, Integer> counts, List<Violation> warnings) {}

  private volatile Answer last;

  /** How many of {@code clients} are of each kind; kinds with none are absent. */
  public static Map<ClientKind, Integer> count(List<ClientStatus> clients, ClientKinds kinds) {
    Map<ClientKind, Integer> counts = new EnumMap<>(ClientKind.class);
    for (ClientStatus c : clients) {
      kinds.kindOf(c.userAgent(), c.nodeCluster()).ifPresent(k -> counts.merge(k, 1, Integer::sum));
    }
    return counts;
  }

  /** {@code counts} keyed by each kind's label ({@code grpc-js}), in kind order, as the API shows them. */
  public static Map<String, Integer> byLabel(Map<ClientKind, Integer> counts) {
    Map<String, Integer> out = new java.util.LinkedHashMap<>();
    counts.forEach((k, n) -> out.put(k.label(), n));
    return out;
  }

  /** The warnings {@code snapshot} draws from the connected clients of these kinds. */
  public List<Violation> of(Snapshot snapshot, Map<ClientKind, Integer> counts) {
    if (snapshot == null) {
      return List.of();
    }
    Answer a = last;
    if (a != null && a.snapshot == snapshot && a.counts.equals(counts)) {
      return a.warnings;
    }
    List<Violation> warnings = List.copyOf(ClientSupportRules.check(served(snapshot), counts));
    last = new Answer(snapshot, Map.copyOf(counts), warnings);
    return warnings;
  }

  public static ClientSupportRules.Served served(Snapshot snapshot) {
    return new ClientSupportRules.Served(
        messages(snapshot, XdsType.CLUSTER, Cluster.class),
        messages(snapshot, XdsType.ENDPOINT, ClusterLoadAssignment.class),
        messages(snapshot, XdsType.ROUTE, RouteConfiguration.class));
  }

  private static <M extends Message> List<M> messages(Snapshot snapshot, XdsType type, Class<M> kind) {
    List<M> out = new ArrayList<>();
    for (XdsResource r : snapshot.resources(type).byName().values()) {
      if (r.hasContent()) {
        out.add(r.content(kind));
      }
    }
    return out;
  }
}
