package io.signalbox.controlplane;

import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the first build of a restarted server until every source has published a FRESH state
 * once. Until then the stored epoch is served (DESIGN §5): building earlier would merge an
 * invalid, missing or not yet listed source as "no endpoints" and publish its clusters empty.
 * Sources' states reach the reconciler at once; the config (which is what lets the reconciler
 * build) waits, newest wins, and is handed over when the last awaited source has synced.
 */
final class FirstSync {

  private static final Logger log = LoggerFactory.getLogger(FirstSync.class);

  private record PendingConfig(DesiredStateTemplate template, String cause) {}

  private final Reconciler reconciler;
  private final Set<String> waiting = ConcurrentHashMap.newKeySet();
  // Guards pending and released: a config offer racing the last source's sync must not be lost.
  private final Object lock = new Object();
  private PendingConfig pending;
  private boolean released;

  /**
   * @param waitFor the ids of the sources to wait for; empty when nothing stored is being served,
   *     so configs pass straight through
   */
  FirstSync(Set<String> waitFor, Reconciler reconciler) {
    this.reconciler = reconciler;
    this.waiting.addAll(waitFor);
    this.released = waitFor.isEmpty();
    if (!released) {
      log.info("serving the stored epoch until these sources have synced: {}", waitFor);
    }
  }

  void offerSource(SourceState state) {
    reconciler.offerSource(state);
    if (state.health() == SourceHealth.FRESH && waiting.remove(state.sourceId()) && waiting.isEmpty()) {
      release();
    }
  }

  void offerConfig(DesiredStateTemplate template, String cause) {
    synchronized (lock) {
      if (!released) {
        pending = new PendingConfig(template, cause);
        return;
      }
    }
    reconciler.offerConfig(template, cause);
  }

  private void release() {
    PendingConfig config;
    synchronized (lock) {
      released = true;
      config = pending;
      pending = null;
    }
    log.info("every source has synced; building from current inputs");
    if (config != null) {
      reconciler.offerConfig(config.template(), config.cause());
    }
  }
}
