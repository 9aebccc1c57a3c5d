package io.signalbox.controlplane.reconcile;

import io.signalbox.source.SourceHealth;
import io.signalbox.store.StoredIntent;
import java.util.List;
import java.util.Map;

/**
 * The writer's view, for the status API and readiness.
 *
 * @param epoch the newest published epoch (0 before the first)
 * @param freeze who froze publishing, why and when; null when not frozen
 * @param lastRejection the most recent input refused, what it was about and whether a later
 *     accepted input superseded it; null when nothing was refused
 * @param storeAvailable false while the store refuses writes; nothing new is published then
 * @param pendingPublish a built epoch waits for the store to come back (or for an unfreeze)
 * @param intentUnreadable why the stored operator intent could not be read, or null once it has
 *     been: until then the stored epoch is served and nothing new is published (fail closed)
 * @param sourceProblems per source that reports any, why it is not FRESH (each violation as text),
 *     e.g. a Kubernetes API server that cannot be reached while its last endpoints are kept
 * @param ejectionFreeze who froze ejections, why and when; null when they are not frozen
 * @param heldEjections per endpoint ({@code cluster/address:port}) an ejection the freeze holds
 *     back, and why
 */
public record ReconcileStatus(
    long epoch,
    long lastSafeEpoch,
    boolean frozen,
    StoredIntent.Freeze freeze,
    boolean storeAvailable,
    boolean pendingPublish,
    String intentUnreadable,
    LastRejection lastRejection,
    Map<String, SourceHealth> sources,
    Map<String, List<String>> sourceProblems,
    StoredIntent.Freeze ejectionFreeze,
    Map<String, String> heldEjections) {

  public ReconcileStatus {
    sourceProblems = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(sourceProblems));
    heldEjections = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(heldEjections));
  }

  /** Serving, and able to publish what comes next: what {@code /readyz} answers. */
  public boolean ready() {
    return epoch > 0 && storeAvailable && intentUnreadable == null;
  }
}
