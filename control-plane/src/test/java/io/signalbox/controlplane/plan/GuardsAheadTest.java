package io.signalbox.controlplane.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.store.StoredIntent;
import io.signalbox.validation.Guards;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GuardsAheadTest {

  static final Instant AT = Instant.parse("2026-01-02T03:04:05Z");

  static EndpointSpec endpoint(int port, EndpointState state) {
    return new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "file:/e.yaml");
  }

  @Test
  void saysWhatReleasesEachHoldInTheWordsStatusUses() {
    HeldUpdates.Held mass = new HeldUpdates.Held("greeter", Guards.MASS_REMOVAL, "cluster 'greeter': takes 3 of 4", AT);
    HeldUpdates.Held min = new HeldUpdates.Held("api", Guards.MIN_ELIGIBLE, "cluster 'api': would have 0", AT);
    HeldUpdates.Held config = new HeldUpdates.Held(null, "guard.config-removal", "config c.yaml: removes", AT,
        "c.yaml");

    List<Plan.Hold> holds = GuardsAhead.of(List.of(config, mass, min), null, Map.of(), ClusterSpec::named);

    assertThat(holds).extracting(Plan.Hold::releasedBy).containsExactly(
        "'signalbox confirm --config' applies the reload as written; or restore the file",
        "'signalbox confirm greeter' lets it through, or the update staying the same for reconcile.holdStable",
        "'signalbox confirm api' lets it through, or another endpoint of api becoming eligible");
    assertThat(holds).extracting(Plan.Hold::cluster).containsExactly(null, "greeter", "api");
  }

  @Test
  void aFreezeHoldsEverythingFirst() {
    List<Plan.Hold> holds = GuardsAhead.of(List.of(), new StoredIntent.Freeze("alice", "incident 7", AT), Map.of(),
        ClusterSpec::named);

    assertThat(holds).containsExactly(new Plan.Hold("freeze", null,
        "publishing is frozen by alice (incident 7): the change would be validated, not published",
        "'signalbox unfreeze' publishes what the inputs say now"));
  }

  @Test
  void namesAClusterLeftAtItsEjectionCap() {
    List<EndpointSpec> oneOfFourEjected = List.of(endpoint(1, EndpointState.EJECTED), endpoint(2, EndpointState.READY),
        endpoint(3, EndpointState.READY), endpoint(4, EndpointState.READY));

    assertThat(GuardsAhead.overCap("greeter", oneOfFourEjected, 10)).isEqualTo("cluster 'greeter': ejecting "
        + "10.0.0.1:2 would eject 2 of 4 endpoints of cluster 'greeter' (50%), more than maxEjectionPercent 10 "
        + "(the next ejection would be refused)");
    assertThat(GuardsAhead.overCap("greeter", oneOfFourEjected, 50)).isNull();
    assertThat(GuardsAhead.overCap("greeter", List.of(endpoint(1, EndpointState.READY)), 0)).isNull();
  }
}
