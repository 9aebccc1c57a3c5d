package io.signalbox.controlplane.reconcile;

import io.signalbox.store.EpochLog;
import io.signalbox.store.StoreSettings;
import io.signalbox.store.StoreUnavailableException;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code store.retainEpochs}: prunes the epoch log after every {@value #PRUNE_EVERY}th published
 * epoch rather than after each, so one DELETE per batch keeps it within retainEpochs + PRUNE_EVERY.
 * The last safe epoch (rollbacks restore from it), the epochs quarantined resources are restored
 * from, and the one being served are kept whatever their age. Confined to the thread that runs {@link AfterPublish}, except the setting.
 */
final class Retention {

  private static final Logger log = LoggerFactory.getLogger(Retention.class);
  static final int PRUNE_EVERY = 10;

  private final EpochLog store;
  private volatile int retainEpochs = StoreSettings.DEFAULT_RETAIN_EPOCHS;
  private int publishedSincePrune;

  Retention(EpochLog store) {
    this.store = store;
  }

  void retainEpochs(int keep) {
    if (keep < 1) {
      throw new IllegalArgumentException("retainEpochs must be at least 1, was " + keep);
    }
    retainEpochs = keep;
  }

  /** @param keep kept whatever their age: the last safe epoch, those quarantined resources restore from */
  void published(long publishedEpoch, Set<Long> keep) {
    if (++publishedSincePrune < PRUNE_EVERY) {
      return;
    }
    publishedSincePrune = 0;
    try {
      Set<Long> kept = new HashSet<>(keep);
      kept.add(publishedEpoch);
      store.prune(retainEpochs, kept);
    } catch (StoreUnavailableException e) {
      // Not worth an outage state of its own: the next batch tries again.
      log.warn("could not prune old epochs: {}", e.getMessage());
    }
  }
}
