package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the writer has published and decided, as readers (the admin API) see it: immutable values
 * read at one moment, never the writer's own state. Taking a view costs a few volatile reads and
 * a copy of the drains in progress.
 *
 * @param snapshot the newest published epoch, or null before the first
 * @param held cluster updates the guards hold back, with the fingerprints a confirmation names
 * @param drainingSince per endpoint DRAINING now, the first epoch of its current DRAINING run
 * @param clusters the cluster of a name as configured: declared, or discovered with the defaults
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
    Function<String, ClusterSpec> clusters,
    long serializations) {

  public PublishedView {
    held = List.copyOf(held);
    heldFingerprints = Map.copyOf(heldFingerprints);
    intent = intent == null ? Intent.NONE : intent;
    lastSafeByGroup = Map.copyOf(lastSafeByGroup);
    drainingSince = Map.copyOf(drainingSince);
  }
}
