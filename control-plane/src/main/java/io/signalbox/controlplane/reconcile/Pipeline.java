package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceState;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.Validator;
import io.signalbox.validation.Violation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The one way from raw inputs (a config, every source's full state) to a verdict and resources:
 * the sources merged by {@link EndpointMerge}'s rule, every rule of the validator, the translation
 * and Envoy's own rules, in that order, by {@link Candidates#next} itself. {@code signalbox
 * validate} and the start of {@code serve} ({@code cli/ConfigCheck}) ask it, the writer builds
 * every epoch with the same {@link Candidates#next}, and the config guard asks it before holding a
 * reload ({@link ConfigHolds}): what one of them refuses, the others refuse, with the same
 * violations (issue 41). {@code PipelineAgreementTest} holds the three against each other.
 *
 * <p>A verdict here is a first build's: no epoch before it, no operator intent, no guard. The
 * guards only ever hold back a change from an epoch clients have; they never make invalid input
 * valid nor valid input invalid.
 */
public final class Pipeline {

  /**
   * @param errors every reason the inputs cannot be an epoch: the sources' own problems (a file
   *     that does not parse or breaks a rule, a missing file), then the build's
   * @param warnings what the validator records but does not refuse
   * @param candidate the resources, when valid; null otherwise
   */
  public record Verdict(List<Violation> errors, List<Violation> warnings, SnapshotCandidate candidate) {
    public Verdict {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }

    public boolean valid() {
      return errors.isEmpty();
    }
  }

  private Pipeline() {}

  /**
   * The verdict {@code validate} and the start of {@code serve} give: the validator and Envoy rule
   * checks the server runs. A source with problems refuses the inputs with its problems, and with
   * every violation of the build of the rest (the config's own, the other sources'): what the faulty
   * source contributes is what it has as it is, nothing offline. A running server reports the same
   * two sets, the source's as {@code ReconcileStatus.sourceProblems} and the build's as its last
   * rejection, keeping the source's last good endpoints.
   *
   * @param precedence {@code sources.precedence}
   */
  public static Verdict check(DesiredStateTemplate template, List<SourceState> sources, List<String> precedence,
      Clock clock) {
    List<Violation> problems = new ArrayList<>();
    sources.stream().sorted(Comparator.comparing(SourceState::sourceId)).forEach(s -> problems.addAll(s.problems()));
    Verdict built = build(template, sources, precedence, clock, new DesiredStateValidator(),
        new EnvoyResourceValidator()::validate);
    if (problems.isEmpty()) {
      return built;
    }
    // The build's warnings are left out: without the faulty source's endpoints they describe its
    // absence ("cluster 'greeter' has no endpoints"), not the inputs.
    problems.addAll(built.errors());
    return new Verdict(problems, List.of(), null);
  }

  /** A first build of {@code sources} as they are (a source's last good endpoints included). */
  static Verdict build(DesiredStateTemplate template, List<SourceState> sources, List<String> precedence,
      Clock clock, Validator validator, ResourceCheck resourceCheck) {
    // A fresh translator: an incremental one remembers the writer's last build, and its first call
    // is the whole translation anyway.
    Candidates first = new Candidates(clock, validator, new IncrementalTranslator(), resourceCheck, epoch -> null);
    first.sourcePrecedence(precedence);
    Candidates.Result result = first.next(new Candidates.Input(template, new ClusterSpecs(template), sources,
        Intent.NONE, null, Set.of(), Provenance.getDefaultInstance()));
    if (result instanceof Candidates.Refused refused) {
      return new Verdict(refused.errors(), refused.warnings(), null);
    }
    Candidates.Built built = (Candidates.Built) result;
    return new Verdict(List.of(), built.warnings(), built.candidate());
  }
}
