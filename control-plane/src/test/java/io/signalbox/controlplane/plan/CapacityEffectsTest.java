package io.signalbox.controlplane.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.telemetry.DemandWindow;
import io.signalbox.model.AdmissionSpec;
import io.signalbox.model.CapacitySpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityEffectsTest {

  static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  static final ClusterSpec.Admission SHEDDING = new ClusterSpec.Admission(new CapacitySpec(100),
      new AdmissionSpec(1.0, 10, Duration.ofSeconds(3)));

  static EndpointSpec endpoint(int port, EndpointState state) {
    return new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "file:/e.yaml");
  }

  static DemandWindow demand(double rps) {
    return new DemandWindow(rps, 1.0, 1, NOW.minusSeconds(5), NOW);
  }

  static List<Plan.CapacityEffect> of(List<EndpointSpec> was, List<EndpointSpec> will, ClusterSpec.Admission admission,
      DemandWindow demand, int dropNow) {
    ClusterSpec spec = ClusterSpec.named("greeter").with(admission);
    return CapacityEffects.of(Map.of("greeter", was), Map.of("greeter", will), c -> spec, c -> spec, c -> demand,
        c -> dropNow);
  }

  @Test
  void predictsTheDropAdmissionWouldRaiseWhenADrainLeavesTooLittleCapacity() {
    List<EndpointSpec> three = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.READY),
        endpoint(3, EndpointState.READY));
    List<EndpointSpec> one = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.DRAINING),
        endpoint(3, EndpointState.DRAINING));

    Plan.CapacityEffect e = of(three, one, SHEDDING, demand(200), 0).get(0);

    assertThat(e.before()).isEqualTo(new Plan.Capacity(3, 300L, null));
    assertThat(e.after()).isEqualTo(new Plan.Capacity(1, 100L, null));
    assertThat(e.demandRps()).isEqualTo(200.0);
    assertThat(e.dropNow()).isEqualTo("0.0%");
    assertThat(e.dropAfter()).isEqualTo("50.0%");
    assertThat(e.says()).isEqualTo("this would drop about 50.0% of greeter's calls (200.0 rps for 100 rps of capacity)");
    assertThat(e.drainsStarted()).containsExactly("10.0.0.1:2", "10.0.0.1:3");
    assertThat(e.drainsCutShort()).isEmpty();
  }

  @Test
  void saysNothingIsShedWhileTheDemandFitsAndNamesTheDrainsItCutsShort() {
    List<EndpointSpec> draining = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.DRAINING),
        endpoint(3, EndpointState.DRAINING));
    List<EndpointSpec> back = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.READY));

    Plan.CapacityEffect e = of(draining, back, SHEDDING, demand(150), 0).get(0);

    assertThat(e.dropAfter()).isEqualTo("0.0%");
    assertThat(e.says()).isEqualTo("no calls of greeter would be dropped");
    assertThat(e.drainsCutShort()).containsExactly("10.0.0.1:2 -> READY", "10.0.0.1:3 removed");
  }

  @Test
  void aDropInForceIsLoweredInStepsAndUnsettledDemandKeepsIt() {
    List<EndpointSpec> one = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.DRAINING));
    List<EndpointSpec> two = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.READY));

    assertThat(of(one, two, SHEDDING, demand(150), 333_000).get(0).says())
        .isEqualTo("the drop of 33.3% would be lowered in steps toward 0.0%");
    assertThat(of(one, two, SHEDDING, new DemandWindow(150, 0.5, 1, NOW.minusSeconds(5), NOW), 333_000).get(0).says())
        .isEqualTo("no load reports cover the demand window of greeter: the drop stays 33.3% until they do");
  }

  @Test
  void withoutAdmissionOrADeclaredCapacityNothingIsShed() {
    List<EndpointSpec> two = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.READY));
    List<EndpointSpec> one = List.of(endpoint(1, EndpointState.READY), endpoint(2, EndpointState.DRAINING));

    Plan.CapacityEffect off = of(two, one, ClusterSpec.Admission.UNSET, demand(500), 0).get(0);
    assertThat(off.says()).isEqualTo("admission is off for greeter: nothing is shed automatically");
    assertThat(off.after()).isEqualTo(new Plan.Capacity(1, null,
        "capacity unknown: 10.0.0.1:1 declare(s) none and the cluster has no capacity"));

    Plan.CapacityEffect unknown = of(two, one, new ClusterSpec.Admission(null, new AdmissionSpec(1.0, 10, null)),
        demand(500), 0).get(0);
    assertThat(unknown.says()).endsWith("; never shed automatically");
    assertThat(unknown.dropAfter()).isEqualTo("0.0%");
  }

  @Test
  void aClusterWhoseCapacityAndDrainsStayTheSameIsLeftOut() {
    List<EndpointSpec> before = List.of(endpoint(1, EndpointState.READY));
    List<EndpointSpec> reweighted = List.of(new EndpointSpec("10.0.0.1", 1, "a", 5, 0, EndpointState.READY, "file:/e.yaml"));

    assertThat(of(before, reweighted, SHEDDING, demand(50), 0)).isEmpty();
    assertThat(of(before, before, SHEDDING, demand(50), 0)).isEmpty();
  }
}
