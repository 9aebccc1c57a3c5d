package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceState;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * What the writer would make of other inputs, asked without building: the writer's own build
 * ({@link Candidates#next}) and guards ({@link ConfigHolds}, {@link HeldUpdates}), fresh instances of
 * each, given what the writer sees now (its config, the other sources, the operator intent, the
 * served epoch). Nothing of the writer is touched: {@code signalbox plan} predicts with the code
 * that decides, so a prediction and what applying the inputs does cannot drift apart.
 *
 * @param now what the writer sees at the moment the rehearsal was taken
 * @param epochs a published epoch's snapshot (a quarantined resource is restored from one)
 * @param configRemovalPercent the config guard's threshold in force
 * @param holdStableFor how long a held mass removal waits before it applies by itself
 */
public record Rehearsal(Moment now, Clock clock, LongFunction<Snapshot> epochs, int configRemovalPercent,
    Duration holdStableFor) {

  /**
   * The writer's inputs and state at one moment.
   *
   * @param config the newest config offered (null before the first)
   * @param inForce the config the served epoch was built from (null before the first build)
   * @param sources every source's state
   * @param precedence {@code sources.precedence}
   * @param intent the operator intent (null while it cannot be read)
   * @param served the epoch served now, or null before the first
   */
  public record Moment(DesiredStateTemplate config, DesiredStateTemplate inForce, List<SourceState> sources,
      List<String> precedence, Intent intent, Snapshot served) {
    public Moment {
      sources = List.copyOf(sources);
      precedence = List.copyOf(precedence);
      intent = intent == null ? Intent.NONE : intent;
    }
  }

  /** What the writer would do. */
  public sealed interface Outcome permits Refused, Built {}

  /** The writer would refuse the inputs (with the operator intent applied): no epoch. */
  public record Refused(List<Violation> errors) implements Outcome {
    public Refused {
      errors = List.copyOf(errors);
    }
  }

  /**
   * The writer would build {@code candidate}: the inputs as they would be served once nothing holds
   * them. {@code holds} says what would hold it back first, the config guard's before the clusters'
   * (a freeze is the intent's: {@link Moment#intent}).
   */
  public record Built(SnapshotCandidate candidate, List<HeldUpdates.Held> holds) implements Outcome {
    public Built {
      holds = List.copyOf(holds);
    }
  }

  /**
   * What the writer would do with {@code config} and {@code sources} in place of its own, both
   * already accepted by the one pipeline ({@link Pipeline#check}): a config the pipeline refuses
   * is refused, never held, so the config guard is not asked whether it builds.
   */
  public Outcome of(DesiredStateTemplate config, List<SourceState> sources) {
    Intent intent = now.intent();
    List<HeldUpdates.Held> holds = new ArrayList<>();
    if (now.inForce() != null) {
      ConfigHolds guard = new ConfigHolds();
      guard.percent(configRemovalPercent);
      guard.built(now.inForce());
      guard.admit(config, intent.confirmations(), clock.instant(), t -> true);
      holds.addAll(guard.held());
    }
    Candidates build = new Candidates(clock, new DesiredStateValidator(), new IncrementalTranslator(),
        new EnvoyResourceValidator()::validate, epochs);
    build.sourcePrecedence(now.precedence());
    build.served().holdStableFor(holdStableFor);
    Candidates.Result first = build.next(input(config, sources, intent));
    if (first instanceof Candidates.Refused refused) {
      return new Refused(refused.errors());
    }
    SnapshotCandidate candidate = ((Candidates.Built) first).candidate();
    List<HeldUpdates.Held> clusterHolds = build.served().held();
    if (!clusterHolds.isEmpty()) {
      holds.addAll(clusterHolds.stream().sorted(java.util.Comparator.comparing(HeldUpdates.Held::cluster)).toList());
      // Built again as if each hold were confirmed: what the inputs change once released, which is
      // what the plan's diff shows (the held build is the served epoch for those clusters).
      Intent released = intent;
      for (HeldUpdates.Held h : clusterHolds) {
        released = released.withConfirmation(h.cluster(), build.served().heldFingerprint(h.cluster()));
      }
      if (build.next(input(config, sources, released)) instanceof Candidates.Built unheld) {
        candidate = unheld.candidate();
      }
    }
    return new Built(candidate, holds);
  }

  private Candidates.Input input(DesiredStateTemplate config, List<SourceState> sources, Intent intent) {
    // No drain is taken as acknowledged: the writer's record of ACKs is its own thread's. An
    // endpoint that left its source keeps DRAINING here, as it is served until its drain ends.
    return new Candidates.Input(config, new ClusterSpecs(config), sources, intent, now.served(), Set.of(),
        Provenance.getDefaultInstance());
  }
}
