package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.ClusterSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the writer leaves for readers after each build (and at start), as values: the epoch served,
 * the updates the guards hold back, the drains it carries and its clusters as configured. The admin
 * API reads it through {@link PublishedView}, never the writer's own state, so a view taken once
 * answers every question about one moment.
 *
 * @param specs the configuration the cluster specs came from (kept to reuse them while it and the
 *     served clusters stay the same)
 */
record EpochView(
    Snapshot snapshot,
    List<HeldUpdates.Held> held,
    Map<String, String> heldFingerprints,
    Map<EndpointRef, Long> drainingSince,
    Map<String, ClusterSpec> clusters,
    ClusterSpecs specs) {

  static final EpochView NONE = new EpochView(null, List.of(), Map.of(), Map.of(), Map.of(), new ClusterSpecs(null));

  EpochView {
    held = List.copyOf(held);
    heldFingerprints = Map.copyOf(heldFingerprints);
    drainingSince = Map.copyOf(drainingSince);
    clusters = Map.copyOf(clusters);
  }

  /** On the writer thread: the view of what is served and decided now, sharing what did not change. */
  static EpochView next(EpochView last, Snapshot snapshot, ClusterSpecs specs, ServedEndpoints served,
      ConfigHolds configHolds, Map<EndpointRef, Long> drainingSince) {
    Map<String, String> fingerprints = new TreeMap<>();
    List<HeldUpdates.Held> endpointHolds = served.held();
    endpointHolds.forEach(h -> {
      String f = served.heldFingerprint(h.cluster());
      if (f != null) {
        fingerprints.put(h.cluster(), f);
      }
    });
    String configFingerprint = configHolds.fingerprint();
    if (configFingerprint != null) {
      fingerprints.put(ConfigHolds.TARGET, configFingerprint);
    }
    List<HeldUpdates.Held> held = new ArrayList<>(configHolds.held());
    held.addAll(endpointHolds);
    return new EpochView(snapshot, held, fingerprints, drainingSince, clusters(last, snapshot, specs), specs);
  }

  /** Every cluster the snapshot serves, as configured: declared, or discovered with the defaults. */
  private static Map<String, ClusterSpec> clusters(EpochView last, Snapshot snapshot, ClusterSpecs specs) {
    if (snapshot == null) {
      return Map.of();
    }
    Map<String, ?> served = snapshot.endpoints();
    if (last.specs() == specs && last.clusters().keySet().equals(served.keySet())) {
      return last.clusters();
    }
    Map<String, ClusterSpec> byName = new HashMap<>();
    served.keySet().forEach(name -> byName.put(name, specs.get(name)));
    return byName;
  }
}
