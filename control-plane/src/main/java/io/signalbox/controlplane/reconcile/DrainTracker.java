package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointState;
import java.util.HashSet;
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

  DrainTracker(XdsServer xds) {
    this.xds = xds;
  }

  /** Records the DRAINING endpoints of a snapshot just published (or restored). */
  void note(Snapshot snapshot) {
    Set<EndpointRef> draining = new HashSet<>();
    snapshot.endpoints().forEach((cluster, list) -> list.stream()
        .filter(e -> e.state() == EndpointState.DRAINING)
        .forEach(e -> draining.add(EndpointRef.of(cluster, e))));
    drainingSince.keySet().retainAll(draining);
    draining.forEach(ref -> drainingSince.putIfAbsent(ref, snapshot.epoch()));
  }

  Long drainingSince(EndpointRef endpoint) {
    return drainingSince.get(endpoint);
  }

  boolean acknowledged(EndpointRef endpoint) {
    Long since = drainingSince.get(endpoint);
    if (since == null) {
      return false;
    }
    return xds.holders(XdsType.ENDPOINT, endpoint.cluster()).stream().allMatch(c -> syncedEndpoints(c) >= since);
  }

  private static long syncedEndpoints(ClientStatus c) {
    var t = c.types().get(XdsType.ENDPOINT.typeUrl());
    return t == null ? 0 : t.syncedEpoch();
  }
}
