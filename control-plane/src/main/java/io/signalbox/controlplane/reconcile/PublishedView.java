package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the writer has published and decided, as readers (the admin API) see it: immutable values
 * read at one moment, never the writer's own state: the part each build decides is published by
 * the writer as one value ({@link EpochView}); the status, intent and per-group safety are read
 * when the view is taken. Taking a view costs a few volatile reads.
 *
 * @param snapshot the newest published epoch, or null before the first
 * @param held cluster updates the guards hold back, with the fingerprints a confirmation names
 * @param drainingSince per endpoint DRAINING now, the first epoch of its current DRAINING run
 * @param clusterSpecs every cluster the epoch serves, as configured: declared, or discovered with
 *     the defaults
 * @param serializations resources the snapshot builder serialized so far (one per new or changed
 *     resource, never per client)
 */
public record PublishedView(
    Snapshot snapshot,
    ReconcileStatus status,
    List<HeldUpdates.Held> held,
    Map<String, String> heldFingerprints,
    Intent intent,
    Map<String, Long> lastSafeByGroup,
    Map<EndpointRef, Long> drainingSince,
    Map<String, ClusterSpec> clusterSpecs,
    long serializations) {

  public PublishedView {
    held = List.copyOf(held);
    heldFingerprints = Map.copyOf(heldFingerprints);
    intent = intent == null ? Intent.NONE : intent;
    lastSafeByGroup = Map.copyOf(lastSafeByGroup);
    drainingSince = Map.copyOf(drainingSince);
    clusterSpecs = Map.copyOf(clusterSpecs);
  }

  /**
   * The cluster {@code name} as configured. The API asks only about clusters the epoch serves (it
   * refuses unknown endpoints first); any other name has no settings of its own.
   */
  public Function<String, ClusterSpec> clusters() {
    return name -> {
      ClusterSpec c = clusterSpecs.get(name);
      return c == null ? ClusterSpec.named(name) : c;
    };
  }
}
