package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The writer's latest-wins inputs as one build takes them, and the cause its epoch records
 * ({@link ChangedSources}): the sources that changed since the last build, not whichever signal
 * woke the writer.
 */
class InputsTest {

  private static final DesiredStateTemplate CONFIG = endpoints -> new DesiredState("test", List.of(), List.of(),
      List.of(), endpoints);

  private final Inputs inputs = new Inputs();

  private static SourceState source(String id, long generation, int... ports) {
    List<EndpointSpec> web = java.util.Arrays.stream(ports)
        .mapToObj(p -> new EndpointSpec("10.0.0.1", p, "a", 1, 0, EndpointState.READY, id)).toList();
    return new SourceState(id, generation, SourceHealth.FRESH, web.isEmpty() ? Map.of() : Map.of("web", web),
        List.of());
  }

  @Test
  void aBuildTakesTheLatestOfEachInputOnce() {
    inputs.config(CONFIG);
    inputs.source(source("file:/e.yaml", 1, 80));
    inputs.source(source("file:/e.yaml", 2, 81));
    inputs.automaticDrops(AutomaticDrops.INHERITED);

    Inputs.Taken taken = inputs.take("startup");

    assertThat(taken.config()).isSameAs(CONFIG);
    assertThat(taken.configOffers()).isEqualTo(1);
    assertThat(taken.seen()).singleElement().extracting(SourceState::generation).isEqualTo(2L);
    assertThat(taken.automaticDrops()).isSameAs(AutomaticDrops.INHERITED);
    // What arrives after the take is the next build's.
    inputs.source(source("file:/e.yaml", 3, 82));
    assertThat(taken.seen()).singleElement().extracting(SourceState::generation).isEqualTo(2L);
  }

  @Test
  void everyConfigOfferedIsCountedEvenTheSameOneAgain() {
    inputs.config(CONFIG);
    inputs.config(CONFIG);

    assertThat(inputs.configOffers()).isEqualTo(2);
    assertThat(inputs.take("config file changed").configOffers()).isEqualTo(2);
  }

  @Test
  void theFirstBuildNamesTheSourcesThatBroughtEndpointsNotTheFirstSignal() {
    inputs.source(source("registry", 1));
    inputs.source(source("file:/e.yaml", 1, 80));

    assertThat(inputs.take("source registry generation 1").cause()).isEqualTo("source file:/e.yaml generation 1");
  }

  @Test
  void aSourceThatChangedSinceTheLastBuildIsNamedAfterAConfigOrOperatorSignal() {
    inputs.source(source("file:/e.yaml", 1, 80));
    inputs.built(inputs.take("startup"));
    inputs.source(source("file:/e.yaml", 4, 80, 81));

    assertThat(inputs.take("config file changed").cause())
        .isEqualTo("config file changed; source file:/e.yaml generation 4");
  }

  @Test
  void aNewGenerationWithTheSameEndpointsIsNoChange() {
    inputs.source(source("file:/e.yaml", 1, 80));
    inputs.built(inputs.take("startup"));
    inputs.source(source("file:/e.yaml", 2, 80));

    assertThat(inputs.take("operator change").cause()).isEqualTo("operator change");
  }

  @Test
  void changesAreCountedFromTheLastBuildOnlyOnceItIsBuilt() {
    inputs.source(source("file:/e.yaml", 1, 80));
    inputs.take("startup");
    // Nothing was built from that take (refused, say): the source still counts as changed.

    assertThat(inputs.take("operator change").cause()).isEqualTo("operator change; source file:/e.yaml generation 1");
  }

  @Test
  void theProvenanceRecordsTheCauseGenerationsAndSortedDrainAcks() {
    inputs.source(source("file:/e.yaml", 3, 80));
    inputs.source(source("registry", 9));

    Provenance p = inputs.take("startup").provenance(Set.of(new EndpointRef("web", "10.0.0.2", 80),
        new EndpointRef("api", "10.0.0.1", 80)));

    assertThat(p.getCause()).isEqualTo("source file:/e.yaml generation 3");
    assertThat(p.getSourceGenerationsMap()).containsExactlyInAnyOrderEntriesOf(Map.of("file:/e.yaml", "3",
        "registry", "9"));
    assertThat(p.getDrainsAcknowledgedList()).containsExactly("api/10.0.0.1:80", "web/10.0.0.2:80");
  }

  @Test
  void healthAndProblemsArePerSourceOnlySourcesWithProblemsListed() {
    inputs.source(source("file:/e.yaml", 1, 80));
    inputs.source(new SourceState("kubernetes", 2, SourceHealth.STALE, Map.of(),
        List.of(Violation.error("source.unreachable", "kubernetes", "", "API server unreachable"))));

    assertThat(inputs.health()).containsExactly(Map.entry("file:/e.yaml", SourceHealth.FRESH),
        Map.entry("kubernetes", SourceHealth.STALE));
    assertThat(inputs.problems()).containsExactly(
        Map.entry("kubernetes", List.of("kubernetes: API server unreachable [source.unreachable]")));
  }
}
