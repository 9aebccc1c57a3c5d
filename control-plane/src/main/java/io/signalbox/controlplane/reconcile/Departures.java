package io.signalbox.controlplane.reconcile;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.Lifecycle;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Endpoints that left their sources and are still being drained: an endpoint a source removes is
 * drained like an operator drain before it disappears — DRAINING until every client holding its
 * cluster has ACKed an epoch in which it was DRAINING, and its cluster's drain timeout has passed.
 * Confined to the reconciler's thread.
 *
 * <p>Only clusters whose list differs between what clients hold and what sources say now can have
 * new departures, so an epoch looks at the endpoints of those clusters and of the endpoints
 * already leaving, not at every endpoint.
 */
final class Departures {

  /** Re-check a due departure whose clients have not all ACKed this often. */
  private static final Duration RECHECK = Duration.ofSeconds(1);

  private record Leaving(EndpointSpec lastSeen, Instant since, Instant deadline) {}

  private final Map<EndpointRef, Leaving> leaving = new HashMap<>();

  /**
   * @param published the endpoint model clients hold now (the last published epoch)
   * @param current what sources and operators say now, before departures
   * @param drainTimeout per cluster
   * @param acknowledged whether every client holding the endpoint's cluster has ACKed an epoch in which
   *     it was DRAINING
   */
  List<Lifecycle.Departure> update(Map<String, List<EndpointSpec>> published, Map<String, List<EndpointSpec>> current,
      Function<String, Duration> drainTimeout, Predicate<EndpointRef> acknowledged, Instant now) {
    Refs present = new Refs(current);
    leaving.keySet().removeIf(present::contains);
    ClusterPairs.forEach(published, current, (cluster, list, now_) -> {
      if (now_ == list || list.equals(now_)) {
        return; // every endpoint clients hold is still there
      }
      for (EndpointSpec e : list) {
        EndpointRef ref = EndpointRef.of(cluster, e);
        if (!present.contains(ref) && !leaving.containsKey(ref) && e.state() != EndpointState.EJECTED) {
          leaving.put(ref, new Leaving(e, now, now.plus(drainTimeout.apply(cluster))));
        }
      }
    });
    // Forget what is gone from what clients hold too: it has been removed for good.
    Refs held = new Refs(published);
    leaving.entrySet().removeIf(en -> !held.contains(en.getKey()) && !now.isBefore(en.getValue().deadline()));
    return leaving.entrySet().stream().map(en -> {
      Leaving l = en.getValue();
      Instant removeAfter = l.deadline();
      if (!now.isBefore(l.deadline()) && !acknowledged.test(en.getKey())) {
        removeAfter = now.plus(RECHECK);
      }
      return new Lifecycle.Departure(en.getKey(), l.lastSeen(), l.since(), removeAfter);
    }).toList();
  }

  /** Membership in an endpoint model, indexing a cluster's endpoints only when asked about it. */
  private static final class Refs {
    private final Map<String, List<EndpointSpec>> endpoints;
    private final Map<String, Set<EndpointRef>> indexed = new HashMap<>();

    Refs(Map<String, List<EndpointSpec>> endpoints) {
      this.endpoints = endpoints;
    }

    boolean contains(EndpointRef ref) {
      return indexed.computeIfAbsent(ref.cluster(), cluster -> {
        Set<EndpointRef> refs = new HashSet<>();
        endpoints.getOrDefault(cluster, List.of()).forEach(e -> refs.add(EndpointRef.of(cluster, e)));
        return refs;
      }).contains(ref);
    }
  }
}
