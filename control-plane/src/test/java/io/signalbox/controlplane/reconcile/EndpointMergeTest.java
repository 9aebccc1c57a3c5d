package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointMergeTest {

  private static EndpointSpec ep(String address, int weight, String origin) {
    return new EndpointSpec(address, 80, "a", weight, 0, EndpointState.READY, origin);
  }

  private static SourceState source(String id, EndpointSpec... endpoints) {
    return new SourceState(id, 1, SourceHealth.FRESH, Map.of("web", List.of(endpoints)), List.of());
  }

  @Test
  void unionsTheSameClusterFromTwoSourcesAndKeepsEachEndpointsProvenance() {
    var merged = EndpointMerge.merge(List.of(source("file:/a", ep("10.0.0.1", 1, "file:/a")),
        source("registry", ep("10.0.0.2", 1, "registry:web/10.0.0.2:80"))));

    assertThat(merged.endpoints().get("web")).extracting(EndpointSpec::origin)
        .containsExactlyInAnyOrder("file:/a", "registry:web/10.0.0.2:80");
    assertThat(merged.conflicts()).isEmpty();
  }

  @Test
  void reportsTheSameEndpointWithDifferentAttributesAsAConflict() {
    var merged = EndpointMerge.merge(List.of(source("file:/a", ep("10.0.0.1", 1, "file:/a")),
        source("registry", ep("10.0.0.1", 5, "registry:web/10.0.0.1:80"))));

    assertThat(merged.conflicts()).extracting(Violation::toString).containsExactly(
        "registry:web/10.0.0.1:80: endpoints of cluster 'web' (10.0.0.1:80): also reported by file:/a with "
            + "different attributes (zone a, weight 1, priority 0, READY vs zone a, weight 5, priority 0, READY) "
            + "[source.conflict]");
  }

  @Test
  void aDeclaredPrecedenceResolvesTheConflictWithAWarning() {
    var merged = EndpointMerge.merge(List.of(source("file:/a", ep("10.0.0.1", 1, "file:/a")),
        source("registry", ep("10.0.0.1", 5, "registry:web/10.0.0.1:80"))), List.of("registry", "file"));

    assertThat(merged.endpoints().get("web")).extracting(EndpointSpec::weight).containsExactly(5);
    assertThat(merged.conflicts()).singleElement().satisfies(v -> {
      assertThat(v.isError()).isFalse();
      assertThat(v.message()).isEqualTo("reported differently by file:/a and registry:web/10.0.0.1:80; "
          + "registry:web/10.0.0.1:80 wins by sources.precedence");
    });
  }

  @Test
  void twoCapacitiesForTheSameEndpointAreAConflictNotOneEndpoint() {
    EndpointSpec fromFile = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:/a", 100);
    EndpointSpec fromRegistry =
        new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "registry:web/10.0.0.1:80", 300);

    var merged = EndpointMerge.merge(List.of(source("file:/a", fromFile), source("registry", fromRegistry)));

    assertThat(merged.conflicts()).extracting(Violation::toString).containsExactly(
        "registry:web/10.0.0.1:80: endpoints of cluster 'web' (10.0.0.1:80): also reported by file:/a with "
            + "different attributes (zone a, weight 1, priority 0, READY, capacityRps 100 vs zone a, weight 1, "
            + "priority 0, READY, capacityRps 300) [source.conflict]");
  }
}
