package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Guards;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Remembered guard verdicts are those a fresh check gives: nothing that matters is left out of the key. */
class GuardChecksTest {

  private final GuardChecks guards = new GuardChecks();

  private static EndpointSpec ep(int i, EndpointState state) {
    return new EndpointSpec("10.0.0." + i, 80, "a", 1, 0, state, "file:x");
  }

  private static ClusterSpecs config(int minEligible) {
    String yaml = """
        clusters:
          - name: web
            minEligible: %d
        """.formatted(minEligible);
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(yaml, "signalbox.yaml", Path.of("/")))
        .value();
    return new ClusterSpecs(config::desiredState);
  }

  private static final List<EndpointSpec> TWO = List.of(ep(1, EndpointState.READY), ep(2, EndpointState.READY));

  @Test
  void aNewConfigurationJudgesAnUnchangedClusterAgain() {
    Map<String, List<EndpointSpec>> same = Map.of("web", TWO);

    assertThat(guards.check(same, same, config(1), Map.of())).isEmpty();
    assertThat(guards.check(same, same, config(3), Map.of())).extracting(Guards.Hold::rule)
        .containsExactly(Guards.MIN_ELIGIBLE);
  }

  @Test
  void aChangedListIsCheckedEvenWhenWhatClientsHoldIsTheSame() {
    ClusterSpecs specs = config(2);
    Map<String, List<EndpointSpec>> before = Map.of("web", TWO);
    assertThat(guards.check(before, before, specs, Map.of())).isEmpty();

    var holds = guards.check(before, Map.of("web", List.of(ep(1, EndpointState.READY), ep(2, EndpointState.DRAINING),
        ep(3, EndpointState.WARMING))), specs, Map.of());

    assertThat(holds).singleElement().satisfies(h -> {
      assertThat(h.cluster()).isEqualTo("web");
      assertThat(h.rule()).isEqualTo(Guards.MIN_ELIGIBLE);
    });
  }

  @Test
  void anOperatorsIntentChangesTheVerdictOfAnUnchangedList() {
    ClusterSpecs specs = config(1);
    var three = Map.of("web", List.of(ep(1, EndpointState.READY), ep(2, EndpointState.READY),
        ep(3, EndpointState.READY)));
    var drainTwo = Map.of("web", List.of(ep(1, EndpointState.READY), ep(2, EndpointState.DRAINING),
        ep(3, EndpointState.DRAINING)));
    assertThat(guards.check(three, drainTwo, specs, Map.of())).extracting(Guards.Hold::rule)
        .containsExactly(Guards.MASS_REMOVAL);
    assertThat(guards.check(three, drainTwo, specs, Map.of("web", Set.of("web/10.0.0.2:80", "web/10.0.0.3:80"))))
        .isEmpty();
    assertThat(guards.check(three, drainTwo, specs, Map.of())).extracting(Guards.Hold::rule)
        .containsExactly(Guards.MASS_REMOVAL);
  }

  @Test
  void aClusterClientsHoldThatIsNoLongerWantedIsChecked() {
    ClusterSpecs specs = config(1);

    var holds = guards.check(Map.of("web", TWO), Map.of(), specs, Map.of());

    assertThat(holds).extracting(Guards.Hold::rule).containsExactly(Guards.MASS_REMOVAL);
  }

  @Test
  void throughClustersComingAndGoingEveryVerdictIsThatOfAFreshCheck() {
    ClusterSpecs specs = config(2);
    java.util.Random random = new java.util.Random(17);
    List<List<EndpointSpec>> lists = List.of(List.of(), TWO, List.of(ep(1, EndpointState.READY)),
        List.of(ep(1, EndpointState.DRAINING), ep(2, EndpointState.READY)), List.of(ep(3, EndpointState.READY)));
    Map<String, List<EndpointSpec>> before = new java.util.TreeMap<>();
    for (int step = 0; step < 400; step++) {
      Map<String, List<EndpointSpec>> after = step % 3 == 0 ? new java.util.HashMap<>() : new java.util.TreeMap<>();
      for (String cluster : List.of("a", "b", "web", "x", "y")) {
        if (random.nextInt(4) > 0) {
          after.put(cluster, random.nextInt(3) == 0 ? lists.get(random.nextInt(lists.size()))
              : before.getOrDefault(cluster, TWO));
        }
      }

      var holds = guards.check(before, after, specs, Map.of());

      assertThat(holds).as("step %d", step).isEqualTo(Guards.check(before, after, specs::get, Set.of()));
      before = new java.util.TreeMap<>(after);
    }
  }
}
