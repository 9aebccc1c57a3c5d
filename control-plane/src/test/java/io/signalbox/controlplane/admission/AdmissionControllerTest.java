package io.signalbox.controlplane.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.admission.AdmissionController.Decision;
import io.signalbox.controlplane.admission.AdmissionController.Reading;
import io.signalbox.controlplane.admission.AdmissionController.Rule;
import io.signalbox.controlplane.admission.AdmissionController.Settings;
import io.signalbox.controlplane.admission.AdmissionController.State;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AdmissionControllerTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Settings FULL = new Settings(1.0, 100_000, Duration.ofSeconds(30));
  private static final State NONE = new State(0, T0.minusSeconds(3600), T0.minusSeconds(3600));

  private static Reading reading(long capacity, double demand) {
    return new Reading(new EligibleCapacity.Known(capacity, 1), demand, true);
  }

  @Test
  void demandTwiceTheLimitIsHalvedAtOnce() {
    Decision d = AdmissionController.decide(FULL, reading(100, 200), NONE, T0);

    assertThat(d.perMillion()).isEqualTo(500_000);
    assertThat(d.rule()).isEqualTo(Rule.RAISED);
    assertThat(d.cause()).isEqualTo(
        "eligible capacity 100 rps (1 endpoints), limit 100.0 rps, demand 200.0 rps: drop raised to 50.0%");
  }

  @Test
  void theTargetIsRoundedUpToATenthOfAPercentSoTheAdmittedDemandFits() {
    // 1 - 100/300 = 66.666...%: 66.7 % admits 99.9 rps of 300.
    assertThat(AdmissionController.target(100, 300)).isEqualTo(667_000);
    assertThat(AdmissionController.target(100, 100)).isZero();
    assertThat(AdmissionController.target(80, 100)).isEqualTo(200_000);
  }

  @Test
  void maxUtilizationScalesTheLimit() {
    Settings eighty = new Settings(0.8, 100_000, Duration.ofSeconds(30));

    Decision d = AdmissionController.decide(eighty, reading(300, 300), NONE, T0);

    assertThat(d.perMillion()).isEqualTo(200_000);
  }

  @Test
  void aLowerTargetWithinTheBandChangesNothing() {
    State at50 = new State(500_000, T0.minusSeconds(60), T0.minusSeconds(10));

    // Demand 190 → target 47.4 %: 2.6 points under the drop, inside the 5-point band.
    Decision d = AdmissionController.decide(FULL, reading(100, 190), at50, T0);

    assertThat(d.perMillion()).isEqualTo(500_000);
    assertThat(d.rule()).isEqualTo(Rule.HELD);
    assertThat(d.cause()).isEqualTo(
        "eligible capacity 100 rps (1 endpoints), limit 100.0 rps, demand 190.0 rps: drop 50.0% held (target 47.4%)");
  }

  @Test
  void theDropFallsByOneStepPerWindow() {
    State at50 = new State(500_000, T0, T0);
    Reading healed = reading(300, 200);

    Decision early = AdmissionController.decide(FULL, healed, at50, T0.plusSeconds(29));
    Decision first = AdmissionController.decide(FULL, healed, early.state(), T0.plusSeconds(30));
    Decision tooSoon = AdmissionController.decide(FULL, healed, first.state(), T0.plusSeconds(50));
    Decision second = AdmissionController.decide(FULL, healed, tooSoon.state(), T0.plusSeconds(60));

    assertThat(List.of(early, first, tooSoon, second)).extracting(Decision::perMillion)
        .containsExactly(500_000, 400_000, 400_000, 300_000);
    assertThat(first.cause()).isEqualTo(
        "eligible capacity 300 rps (1 endpoints), limit 300.0 rps, demand 200.0 rps: drop lowered from 50.0% to 40.0%");
  }

  @Test
  void theLastStepsReachZeroEvenInsideTheBand() {
    State at3 = new State(30_000, T0, T0);

    Decision d = AdmissionController.decide(FULL, reading(300, 200), at3, T0.plusSeconds(30));

    assertThat(d.perMillion()).isZero();
    assertThat(d.rule()).isEqualTo(Rule.CLEARED);
  }

  @Test
  void loweringNeverGoesBelowTheTarget() {
    State at50 = new State(500_000, T0, T0);

    // Target 33.4 %: one step of 10 would be 40, the target is under it; with a step of 30 the target wins.
    Settings bigStep = new Settings(1.0, 300_000, Duration.ofSeconds(30));
    Decision d = AdmissionController.decide(bigStep, reading(200, 300), at50, T0.plusSeconds(30));

    assertThat(d.perMillion()).isEqualTo(334_000);
  }

  @Test
  void withoutFreshReportsTheDropHoldsOneWindowThenStepsDownAndNeverRises() {
    State at50 = new State(500_000, T0, T0);
    Reading silent = new Reading(new EligibleCapacity.Known(100, 1), 0, false);

    Decision held = AdmissionController.decide(FULL, silent, at50, T0.plusSeconds(29));
    Decision stepped = AdmissionController.decide(FULL, silent, held.state(), T0.plusSeconds(30));
    Decision next = AdmissionController.decide(FULL, silent, stepped.state(), T0.plusSeconds(45));
    Decision fromZero = AdmissionController.decide(FULL, silent, NONE, T0);

    assertThat(List.of(held, stepped, next, fromZero)).extracting(Decision::perMillion)
        .containsExactly(500_000, 400_000, 400_000, 0);
    assertThat(held.cause()).isEqualTo("eligible capacity 100 rps (1 endpoints), limit 100.0 rps; no fresh load "
        + "reports since 2026-01-01T00:00:00Z, drop 50.0% held");
  }

  @Test
  void anUnknownCapacityIsNeverShedAgainst() {
    EligibleCapacity unknown = EligibleCapacity.of(List.of(
        new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "", 100),
        new EndpointSpec("10.0.0.2", 80, "", 1, 0, EndpointState.READY, "")), OptionalInt.empty());

    Decision d = AdmissionController.decide(FULL, new Reading(unknown, 500, true),
        new State(500_000, T0, T0), T0.plusSeconds(1));

    assertThat(d.perMillion()).isZero();
    assertThat(d.rule()).isEqualTo(Rule.CLEARED);
    assertThat(d.cause()).isEqualTo(
        "capacity unknown: 10.0.0.2:80 declare(s) none and the cluster has no capacity; never shed automatically");
  }

  @Test
  void eligibleCapacityCountsReadyAndDegradedWithTheClusterDefault() {
    EligibleCapacity c = EligibleCapacity.of(List.of(
        new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "", 150),
        new EndpointSpec("10.0.0.2", 80, "", 1, 0, EndpointState.DEGRADED, ""),
        new EndpointSpec("10.0.0.3", 80, "", 1, 0, EndpointState.DRAINING, "", 100),
        new EndpointSpec("10.0.0.4", 80, "", 1, 0, EndpointState.EJECTED, ""),
        new EndpointSpec("10.0.0.5", 80, "", 1, 0, EndpointState.WARMING, "")), OptionalInt.of(100));

    assertThat(c).isEqualTo(new EligibleCapacity.Known(250, 2));
  }

  @Test
  void noEligibleEndpointHoldsTheDrop() {
    State at20 = new State(200_000, T0, T0);

    Decision d = AdmissionController.decide(FULL, new Reading(new EligibleCapacity.Known(0, 0), 200, true), at20,
        T0.plusSeconds(60));

    assertThat(d.perMillion()).isEqualTo(200_000);
    assertThat(d.cause()).isEqualTo(
        "eligible capacity 0 rps (0 endpoints), limit 0.0 rps, demand 200.0 rps; no eligible endpoint, drop 20.0% held");
  }
}
