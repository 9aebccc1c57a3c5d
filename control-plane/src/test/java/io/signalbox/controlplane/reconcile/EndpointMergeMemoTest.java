package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** An {@link EndpointMerge} that remembers clusters gives what a fresh merge gives, every time. */
class EndpointMergeMemoTest {

  private final EndpointMerge merge = new EndpointMerge();

  private static EndpointSpec ep(String address, int weight, String origin) {
    return new EndpointSpec(address, 80, "a", weight, 0, EndpointState.READY, origin);
  }

  private static SourceState source(String id, Map<String, List<EndpointSpec>> endpoints) {
    return new SourceState(id, 1, SourceHealth.FRESH, endpoints, List.of());
  }

  /** {@code clusters} clusters of two endpoints each, built anew on every call (as a re-parsed file is). */
  private static Map<String, List<EndpointSpec>> fresh(int clusters, String origin) {
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    for (int i = 0; i < clusters; i++) {
      out.put("c" + i, new ArrayList<>(List.of(ep("10.0." + i + ".1", 1, origin), ep("10.0." + i + ".2", 1, origin))));
    }
    return out;
  }

  private EndpointMerge.Result update(SourceState... sources) {
    EndpointMerge.Result result = merge.update(List.of(sources), List.of());
    EndpointMerge.Result expected = EndpointMerge.merge(List.of(sources));
    assertThat(result.endpoints()).as("same as a fresh merge").isEqualTo(expected.endpoints());
    assertThat(result.conflicts()).as("same conflicts, same order").isEqualTo(expected.conflicts());
    return result;
  }

  @Test
  void anUnchangedClusterKeepsItsListInstanceEvenWhenTheSourceSendsANewEqualList() {
    var first = update(source("file:/a", fresh(3, "file:/a")));

    var second = update(source("file:/a", fresh(3, "file:/a")));

    for (String cluster : List.of("c0", "c1", "c2")) {
      assertThat(second.endpoints().get(cluster)).isSameAs(first.endpoints().get(cluster));
    }
  }

  @Test
  void aChangedClusterIsNeverServedStale() {
    var first = update(source("file:/a", fresh(3, "file:/a")));
    Map<String, List<EndpointSpec>> changed = fresh(3, "file:/a");
    changed.put("c1", List.of(ep("10.0.1.1", 7, "file:/a"), ep("10.0.1.2", 1, "file:/a")));

    var second = update(source("file:/a", changed));

    assertThat(second.endpoints().get("c1")).extracting(EndpointSpec::weight).containsExactly(7, 1);
    assertThat(second.endpoints().get("c0")).isSameAs(first.endpoints().get("c0"));
    assertThat(second.endpoints().get("c2")).isSameAs(first.endpoints().get("c2"));

    var third = update(source("file:/a", fresh(3, "file:/a")));
    assertThat(third.endpoints().get("c1")).extracting(EndpointSpec::weight).containsExactly(1, 1);
  }

  @Test
  void clustersThatComeAndGoAreServedAndForgotten() {
    update(source("file:/a", fresh(3, "file:/a")));
    Map<String, List<EndpointSpec>> fewer = fresh(3, "file:/a");
    fewer.remove("c1");
    fewer.put("b", List.of(ep("10.9.0.1", 1, "file:/a")));

    var second = update(source("file:/a", fewer));
    var third = update(source("file:/a", fresh(3, "file:/a")));

    assertThat(second.endpoints()).containsOnlyKeys("b", "c0", "c2");
    assertThat(third.endpoints()).containsOnlyKeys("c0", "c1", "c2");
  }

  @Test
  void aRememberedConflictIsReportedOnEveryUpdateInTheOrderAFreshMergeFindsIt() {
    Map<String, List<EndpointSpec>> file = fresh(3, "file:/a");
    Map<String, List<EndpointSpec>> registry = new TreeMap<>(Map.of(
        "c0", List.of(ep("10.0.0.1", 5, "registry:c0")),
        "c2", List.of(ep("10.0.2.2", 6, "registry:c2"))));
    Map<String, List<EndpointSpec>> kube = new TreeMap<>(Map.of("c1", List.of(ep("10.0.1.1", 9, "kubernetes:c1"))));

    var first = update(source("registry", registry), source("file:/a", file), source("kubernetes:ns", kube));
    var second = update(source("kubernetes:ns", kube), source("file:/a", fresh(3, "file:/a")),
        source("registry", registry));

    assertThat(first.conflicts()).hasSize(3);
    assertThat(second.conflicts()).extracting(Violation::toString).isEqualTo(
        first.conflicts().stream().map(Violation::toString).toList());
  }

  @Test
  void aChangedPrecedenceMergesAgain() {
    SourceState file = source("file:/a", Map.of("c0", List.of(ep("10.0.0.1", 1, "file:/a"))));
    SourceState registry = source("registry", Map.of("c0", List.of(ep("10.0.0.1", 5, "registry:c0"))));

    var fileWins = merge.update(List.of(file, registry), List.of("file", "registry"));
    var registryWins = merge.update(List.of(file, registry), List.of("registry", "file"));

    assertThat(fileWins.endpoints().get("c0")).extracting(EndpointSpec::weight).containsExactly(1);
    assertThat(registryWins.endpoints().get("c0")).extracting(EndpointSpec::weight).containsExactly(5);
  }

  @Test
  void aResultIsNotChangedByLaterUpdates() {
    var first = update(source("file:/a", fresh(2, "file:/a")));
    Map<String, List<EndpointSpec>> before = new TreeMap<>(first.endpoints());
    Map<String, List<EndpointSpec>> changed = fresh(2, "file:/a");
    changed.put("c0", List.of(ep("10.0.0.1", 3, "file:/a")));

    update(source("file:/a", changed));

    assertThat(first.endpoints()).isEqualTo(before);
  }
}
