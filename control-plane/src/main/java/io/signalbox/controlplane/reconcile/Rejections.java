package io.signalbox.controlplane.reconcile;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.store.AuditTrail;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.validation.Violation;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Input that created no epoch: recorded in the store (if reachable), counted, and kept as the
 * latest rejection for the status API, with the inputs it is about, until an accepted input
 * supersedes it. Called from the writer and from the config watcher.
 *
 * <p>The same violations refused again (the writer rebuilds for other reasons while an input stays
 * invalid) are one rejection: recorded and logged once, keeping the cause and time of the edit that
 * introduced them, not overwritten by whatever woke the writer next (issue 29).
 */
final class Rejections {

  private static final Logger log = LoggerFactory.getLogger(Rejections.class);

  /** Which path refused: the writer's build, or the config file before it reached the writer. */
  enum Origin { BUILD, CONFIG }

  private final AuditTrail store;
  private final Counter rejected;
  private final Counter violations;
  // Written by the writer and the config watcher; each write replaces the value whole.
  private volatile LastRejection last;
  private volatile Origin lastOrigin;
  // For a config rejection: how many configs had been offered when it was refused; a build with a
  // config offered after it supersedes it (a build of the old config does not: the file is still bad).
  private volatile long configOffersAtRejection;

  Rejections(AuditTrail store, MeterRegistry meters) {
    this.store = store;
    this.rejected = meters.counter("signalbox_epochs_rejected");
    this.violations = meters.counter("signalbox_validation_violations");
  }

  LastRejection last() {
    return last;
  }

  /**
   * Records and logs a candidate the writer's build refused; a repeat of the rejection in force
   * (found again by a build for another reason) is logged at DEBUG only, as it was logged when new.
   */
  void refusedBuild(Instant at, String cause, List<Violation> errors, long servingEpoch, long configOffers) {
    List<String> lines = errors.stream().map(Violation::toString).toList();
    if (record(new RejectedCandidate(at, cause, lines), inputsOf(errors), Origin.BUILD, configOffers)) {
      log.warn("rejected input ({}), still serving epoch {}: {} {}:\n  {}", cause, servingEpoch,
          lines.size(), lines.size() == 1 ? "violation" : "violations", String.join("\n  ", lines));
    } else {
      log.debug("{}: the same {} as the rejection in force", cause,
          lines.size() == 1 ? "violation" : lines.size() + " violations");
    }
  }

  /**
   * Records a refusal, unless it repeats the one in force (same violations, not superseded).
   *
   * @param inputs what the violations are about
   * @param configOffers how many configs the writer had been offered by then
   * @return false when it was a repeat, recorded and logged before
   */
  synchronized boolean record(RejectedCandidate candidate, List<String> inputs, Origin origin, long configOffers) {
    LastRejection current = last;
    if (current != null && !current.superseded() && current.violations().equals(candidate.violations())) {
      return false;
    }
    last = LastRejection.of(candidate, inputs);
    lastOrigin = origin;
    configOffersAtRejection = configOffers;
    rejected.increment();
    violations.increment(candidate.violations().size());
    try {
      store.recordRejection(candidate);
    } catch (StoreUnavailableException e) {
      log.warn("could not record the rejection ({}): {}", candidate.cause(), e.getMessage());
    }
    return true;
  }

  /**
   * A build was accepted: every input it read is valid, so a build rejection no longer holds, nor
   * a config rejection once a later config has been built.
   *
   * @param configOffers how many configs had been offered when the accepted build read its config
   */
  synchronized void accepted(Instant at, long configOffers) {
    LastRejection current = last;
    if (current == null || current.superseded()) {
      return;
    }
    if (lastOrigin == Origin.CONFIG && configOffers <= configOffersAtRejection) {
      return;
    }
    last = current.supersededAt(at);
    log.info("{} valid again: the rejection of {} ({}) is superseded", String.join(", ", current.inputs()),
        current.at(), current.cause());
  }

  /** The distinct sources of {@code violations}, in order: the inputs a rejection is about. */
  static List<String> inputsOf(List<Violation> violations) {
    LinkedHashSet<String> inputs = new LinkedHashSet<>();
    violations.forEach(v -> inputs.add(v.source().isEmpty() ? "config" : v.source()));
    return List.copyOf(inputs);
  }
}
