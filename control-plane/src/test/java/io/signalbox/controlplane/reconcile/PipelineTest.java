package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.FakeClock;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one rule for an endpoint in several places (docs/configuration.md), as {@code validate} and
 * the start of {@code serve} meet it through {@link Pipeline#check}.
 */
class PipelineTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-12-07T03:00:00Z"));
  private final DesiredStateTemplate template = template();

  private static DesiredStateTemplate template() {
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse("clusters:\n  - name: web\n",
        "signalbox.yaml", Path.of("/"))).value();
    return DesiredStateTemplate.of(config.desiredStates(), config::clusterFor);
  }

  private static SourceState source(String id, int weight, String... problems) {
    List<Violation> found = java.util.Arrays.stream(problems).map(p -> Violation.error("parse", id, "", p)).toList();
    return new SourceState(id, 1, found.isEmpty() ? SourceHealth.FRESH : SourceHealth.FAILED, found.isEmpty()
        ? Map.of("web", List.of(new EndpointSpec("10.0.0.1", 80, "a", weight, 0, EndpointState.READY, id)))
        : Map.of(), found);
  }

  private static List<String> text(List<Violation> violations) {
    return violations.stream().map(Violation::toString).toList();
  }

  @Test
  void theSameEndpointAlikeInTwoFilesIsOneEndpoint() {
    Pipeline.Verdict v = Pipeline.check(template, List.of(source("file:/b.yaml", 1), source("file:/a.yaml", 1)),
        List.of(), clock);

    assertThat(v.errors()).isEmpty();
    assertThat(v.candidate().changed(io.signalbox.controlplane.snapshot.XdsType.ENDPOINT)).containsExactly("web");
  }

  @Test
  void theSameEndpointWrittenDifferentlyInTwoFilesIsAConflictWhateverThePrecedence() {
    Pipeline.Verdict v = Pipeline.check(template, List.of(source("file:/a.yaml", 1), source("file:/b.yaml", 2)),
        List.of("file", "registry"), clock);

    assertThat(text(v.errors())).containsExactly("file:/b.yaml: endpoints of cluster 'web' (10.0.0.1:80): also "
        + "reported by file:/a.yaml with different attributes (zone a, weight 1, priority 0, READY vs zone a, "
        + "weight 2, priority 0, READY) [source.conflict]");
    assertThat(v.candidate()).isNull();
  }

  @Test
  void precedenceBetweenKindsMakesTheConflictAWarningAndTheStrongerIsServed() {
    Pipeline.Verdict v = Pipeline.check(template, List.of(source("file:/a.yaml", 1), source("registry", 3)),
        List.of("registry", "file"), clock);

    assertThat(v.errors()).isEmpty();
    assertThat(text(v.warnings())).anySatisfy(w -> assertThat(w).endsWith("registry wins by sources.precedence "
        + "[source.precedence] (warning)"));
  }

  @Test
  void aSourceWithProblemsRefusesTheInputsWithItsProblemsAlone() {
    Pipeline.Verdict v = Pipeline.check(template, List.of(source("file:/b.yaml", 1, "line 2: bad"),
        source("file:/a.yaml", 0, "line 1: worse")), List.of(), clock);

    assertThat(text(v.errors())).containsExactly("file:/a.yaml: line 1: worse [parse]",
        "file:/b.yaml: line 2: bad [parse]");
  }
}
