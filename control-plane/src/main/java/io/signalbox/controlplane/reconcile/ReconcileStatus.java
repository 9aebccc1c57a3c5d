package io.signalbox.controlplane.reconcile;

import io.signalbox.source.SourceHealth;
import io.signalbox.store.RejectedCandidate;
import java.util.Map;

/**
 * The writer's view, for the status API and readiness.
 *
 * @param epoch the newest published epoch (0 before the first)
 * @param lastRejection the most recent candidate the validator refused, or null
 * @param storeAvailable false while the store refuses writes; nothing new is published then
 * @param pendingPublish a built epoch waits for the store to come back
 */
public record ReconcileStatus(
    long epoch,
    long lastSafeEpoch,
    boolean frozen,
    boolean storeAvailable,
    boolean pendingPublish,
    RejectedCandidate lastRejection,
    Map<String, SourceHealth> sources) {}
