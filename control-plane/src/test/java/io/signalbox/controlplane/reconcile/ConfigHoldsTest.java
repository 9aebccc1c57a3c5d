package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The config guard alone: which reloads it holds, and what lets a held one through. */
class ConfigHoldsTest {

  private static final Instant NOW = Instant.parse("2025-01-02T03:04:05Z");
  private static final Predicate<DesiredStateTemplate> BUILDS = t -> true;

  private static DesiredStateTemplate config(List<String> listeners, String... clusters) {
    return endpoints -> new DesiredState("signalbox.yaml",
        listeners.stream().map(l -> new ListenerSpec(l, true, null, null, l)).toList(),
        listeners.stream().map(l -> new RouteConfigSpec(l, List.of())).toList(),
        Arrays.stream(clusters).map(ClusterSpec::named).toList(), Map.of());
  }

  private static ConfigHolds inForce(DesiredStateTemplate template) {
    ConfigHolds holds = new ConfigHolds();
    assertThat(holds.admit(template, Map.of(), NOW, BUILDS)).isSameAs(template);
    holds.built(template);
    return holds;
  }

  @Test
  void removingOneOfThreeClustersOrHalfOfTwoApplies() {
    ConfigHolds holds = inForce(config(List.of("a", "b"), "x", "y", "z"));

    DesiredStateTemplate oneOfThree = config(List.of("a", "b"), "x", "y");
    assertThat(holds.admit(oneOfThree, Map.of(), NOW, BUILDS)).isSameAs(oneOfThree);
    DesiredStateTemplate halfTheListeners = config(List.of("a"), "x", "y", "z");
    assertThat(holds.admit(halfTheListeners, Map.of(), NOW, BUILDS)).isSameAs(halfTheListeners);
    assertThat(holds.held()).isEmpty();
  }

  @Test
  void removingTwoOfThreeClustersIsHeldAndTheConfigInForceIsBuilt() {
    DesiredStateTemplate before = config(List.of("a"), "x", "y", "z");
    ConfigHolds holds = inForce(before);

    assertThat(holds.admit(config(List.of("a"), "x"), Map.of(), NOW, BUILDS)).isSameAs(before);

    assertThat(holds.held()).containsExactly(new HeldUpdates.Held(null, "guard.config-removal",
        "config signalbox.yaml: the reload removes 2 of 3 declared clusters (y, z), more than configRemovalPercent "
            + "50; the config in force keeps serving until confirmed", NOW, "signalbox.yaml"));
    assertThat(holds.admitted()).isSameAs(before);
  }

  @Test
  void removingEveryListenerIsHeldWhateverThePercent() {
    ConfigHolds holds = inForce(config(List.of("a"), "x"));
    holds.percent(100);

    holds.admit(config(List.of(), "x"), Map.of(), NOW, BUILDS);

    assertThat(holds.held()).extracting(HeldUpdates.Held::message).containsExactly("config signalbox.yaml: the "
        + "reload removes every listener, 1 of 1 (a); removes every route configuration, 1 of 1 (a); the config "
        + "in force keeps serving until confirmed");
  }

  @Test
  void aConfirmationOfThatReloadLetsItThroughAndItIsTheNextBaseline() {
    ConfigHolds holds = inForce(config(List.of("a"), "x", "y", "z"));
    DesiredStateTemplate smaller = config(List.of("a"), "x");
    holds.admit(smaller, Map.of(), NOW, BUILDS);
    String fingerprint = holds.fingerprint();

    assertThat(holds.admit(smaller, Map.of(ConfigHolds.TARGET, "another"), NOW, BUILDS)).isNotSameAs(smaller);
    assertThat(holds.admit(smaller, Map.of(ConfigHolds.TARGET, fingerprint), NOW, BUILDS)).isSameAs(smaller);
    holds.built(smaller);

    assertThat(holds.held()).isEmpty();
    DesiredStateTemplate same = config(List.of("a"), "x");
    assertThat(holds.admit(same, Map.of(), NOW, BUILDS)).isSameAs(same);
  }

  @Test
  void aReloadThatPutsTheRemovedBackEndsTheHold() {
    ConfigHolds holds = inForce(config(List.of("a"), "x", "y", "z"));
    holds.admit(config(List.of("a")), Map.of(), NOW, BUILDS);
    assertThat(holds.held()).hasSize(1);

    DesiredStateTemplate restored = config(List.of("a"), "x", "y", "z");
    assertThat(holds.admit(restored, Map.of(), NOW, BUILDS)).isSameAs(restored);
    assertThat(holds.held()).isEmpty();
  }

  @Test
  void aReloadThatDoesNotBuildIsNeverHeldButGivenToTheBuildToRefuse() {
    DesiredStateTemplate before = config(List.of("a"), "x");
    ConfigHolds holds = inForce(before);
    DesiredStateTemplate renamed = config(List.of(""), "x");
    List<DesiredStateTemplate> asked = new java.util.ArrayList<>();

    DesiredStateTemplate admitted = holds.admit(renamed, Map.of(), NOW, t -> asked.add(t) && false);

    assertThat(admitted).as("refused by the build, with every violation, not held").isSameAs(renamed);
    assertThat(asked).containsExactly(renamed);
    assertThat(holds.held()).isEmpty();
    assertThat(holds.fingerprint()).isNull();
  }

  @Test
  void aHeldReloadIsAskedAgainOnEveryBuildAndEndsHeldOnceItNoLongerBuilds() {
    DesiredStateTemplate before = config(List.of("a"), "x", "y", "z");
    ConfigHolds holds = inForce(before);
    DesiredStateTemplate smaller = config(List.of("a"), "x");
    assertThat(holds.admit(smaller, Map.of(), NOW, BUILDS)).isSameAs(before);
    String fingerprint = holds.fingerprint();
    assertThat(holds.held()).hasSize(1);

    // The same reload, but the sources now make it invalid: its confirmation lets nothing invalid through.
    assertThat(holds.admit(smaller, Map.of(ConfigHolds.TARGET, fingerprint), NOW, t -> false)).isSameAs(smaller);
    assertThat(holds.held()).isEmpty();
    assertThat(holds.admit(smaller, Map.of(), NOW, t -> false)).isSameAs(smaller);
    assertThat(holds.held()).isEmpty();

    // Valid again: held again, as any reload removing that much.
    assertThat(holds.admit(smaller, Map.of(), NOW, BUILDS)).isSameAs(before);
    assertThat(holds.fingerprint()).isEqualTo(fingerprint);
  }

  @Test
  void aReloadTheGuardLetsThroughIsNotCheckedTwice() {
    ConfigHolds holds = inForce(config(List.of("a"), "x", "y", "z"));
    DesiredStateTemplate oneOfThree = config(List.of("a"), "x", "y");

    assertThat(holds.admit(oneOfThree, Map.of(), NOW, t -> {
      throw new AssertionError("asked about a reload the guard does not hold: the build validates it");
    })).isSameAs(oneOfThree);
  }
}
