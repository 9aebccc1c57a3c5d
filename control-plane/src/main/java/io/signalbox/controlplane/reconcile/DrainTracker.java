package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.validation.DrainProgress;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Knows, for each DRAINING endpoint, the first epoch of its current DRAINING run, and whether every
 * client holding its cluster has those endpoints: what "no client will send it new work" means.
 */
final class DrainTracker {

  private final XdsServer xds;
  // Written by the writer after each publish, read by the API.
  private final Map<EndpointRef, Long> drainingSince = new ConcurrentHashMap<>();
  // The snapshot noted last; writer thread only.
  private Snapshot noted;

  DrainTracker(XdsServer xds) {
    this.xds = xds;
  }

  /**
   * Records the DRAINING endpoints of a snapshot just published (or restored). Only clusters whose
   * endpoint list is not the one noted last time are looked at: the others drain what they drained.
   * Found by comparing the two snapshots' endpoint trees, which share every unchanged cluster.
   */
  void note(Snapshot snapshot) {
    snapshot.forEachEndpointChange(noted, (cluster, before, list) -> {
      if (list == null) {
        forget(cluster, before, Set.of());
        return;
      }
      if (list.equals(before)) {
        return;
      }
      Set<EndpointRef> draining = new HashSet<>();
      list.stream().filter(e -> e.state() == EndpointState.DRAINING)
          .forEach(e -> draining.add(EndpointRef.of(cluster, e)));
      forget(cluster, before, draining);
      draining.forEach(ref -> drainingSince.putIfAbsent(ref, snapshot.epoch()));
    });
    noted = snapshot;
  }

  private void forget(String cluster, List<EndpointSpec> before, Set<EndpointRef> stillDraining) {
    if (before == null) {
      return;
    }
    for (EndpointSpec e : before) {
      EndpointRef ref = EndpointRef.of(cluster, e);
      if (!stillDraining.contains(ref)) {
        drainingSince.remove(ref);
      }
    }
  }

  Long drainingSince(EndpointRef endpoint) {
    return drainingSince.get(endpoint);
  }

  /** Every endpoint DRAINING now, with the first epoch of its run: a copy, for readers. */
  Map<EndpointRef, Long> drainingSinceAll() {
    return Map.copyOf(drainingSince);
  }

  boolean acknowledged(EndpointRef endpoint) {
    Long since = drainingSince.get(endpoint);
    if (since == null) {
      return false;
    }
    return xds.holders(XdsType.ENDPOINT, endpoint.cluster()).stream()
        .allMatch(c -> DrainProgress.holdsDrainingEpoch(syncedEndpoints(c), since));
  }

  private static long syncedEndpoints(ClientStatus c) {
    var t = c.types().get(XdsType.ENDPOINT.typeUrl());
    return t == null ? 0 : t.syncedEpoch();
  }
}
