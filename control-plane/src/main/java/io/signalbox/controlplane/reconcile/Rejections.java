package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Input that created no epoch: recorded in the store (if reachable), counted, and kept as the
 * latest rejection for the status API. Called from the writer and from the config watcher.
 */
final class Rejections {

  private static final Logger log = LoggerFactory.getLogger(Rejections.class);

  private final SnapshotStore store;
  private final Counter rejected;
  private final Counter violations;
  private volatile RejectedCandidate last;

  Rejections(SnapshotStore store, MeterRegistry meters) {
    this.store = store;
    this.rejected = meters.counter("signalbox_epochs_rejected");
    this.violations = meters.counter("signalbox_validation_violations");
  }

  RejectedCandidate last() {
    return last;
  }

  void record(RejectedCandidate candidate) {
    last = candidate;
    rejected.increment();
    violations.increment(candidate.violations().size());
    try {
      store.recordRejection(candidate);
    } catch (StoreUnavailableException e) {
      log.warn("could not record the rejection ({}): {}", candidate.cause(), e.getMessage());
    }
  }
}
