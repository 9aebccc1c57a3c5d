package io.signalbox.controlplane.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.admission.AdmissionController.Decision;
import io.signalbox.controlplane.admission.AdmissionController.Reading;
import io.signalbox.controlplane.admission.AdmissionController.Settings;
import io.signalbox.controlplane.admission.AdmissionController.State;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The controller's two promises over random sequences of demand, capacity, ejections and missing
 * reports, one decision per reporting interval (10 s) with a window of 30 s:
 *
 * <ul>
 *   <li>after every decision on fresh reports, the demand those reports showed, less the drop,
 *       fits the limit: admitted demand is over the limit only from a change of demand to the next
 *       decision, at most one interval (plus the build's debounce before the epoch is out);
 *   <li>the drop swings back and forth (up-down-up or down-up-down) at most once per window, and
 *       never rises on an interval without fresh reports.
 * </ul>
 */
class AdmissionPropertiesTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** One interval: the state of each of three endpoints, the demand, whether reports came. */
  record Tick(List<EndpointState> states, int demandRps, boolean fresh) {}

  record Move(Instant at, int direction) {}

  @Property(tries = 300, seed = "31")
  void admittedDemandFitsTheLimitAfterEveryDecisionAndTheDropSwingsAtMostOncePerWindow(
      @ForAll("ticks") List<Tick> ticks, @ForAll("settings") Settings settings) {
    State state = new State(0, T0.minusSeconds(3600), T0.minusSeconds(3600));
    List<Move> moves = new ArrayList<>();
    Instant now = T0;
    for (Tick t : ticks) {
      now = now.plus(INTERVAL);
      EligibleCapacity capacity = EligibleCapacity.of(endpoints(t.states()), OptionalInt.of(100));
      Decision d = AdmissionController.decide(settings, new Reading(capacity, t.demandRps(), t.fresh()), state, now);
      int before = state.perMillion();
      int after = d.perMillion();
      assertThat(after).isBetween(0, AdmissionController.MILLION);
      if (!t.fresh()) {
        assertThat(after).as("no rise without reports at %s", now).isLessThanOrEqualTo(before);
      }
      long rps = ((EligibleCapacity.Known) capacity).rps();
      if (t.fresh() && rps > 0) {
        double admitted = t.demandRps() * (1 - after / (double) AdmissionController.MILLION);
        assertThat(admitted).as("admitted at %s", now).isLessThanOrEqualTo(settings.maxUtilization() * rps + 1e-6);
      }
      if (after != before) {
        moves.add(new Move(now, Integer.signum(after - before)));
      }
      state = d.state();
    }
    for (int i = 2; i < moves.size(); i++) {
      Move a = moves.get(i - 2);
      Move b = moves.get(i - 1);
      Move c = moves.get(i);
      if (a.direction() != b.direction() && b.direction() != c.direction()) {
        assertThat(Duration.between(a.at(), c.at())).as("swing %s %s %s", a, b, c)
            .isGreaterThanOrEqualTo(settings.window());
      }
    }
    for (int i = 1; i < moves.size(); i++) {
      if (moves.get(i).direction() < 0) {
        assertThat(Duration.between(moves.get(i - 1).at(), moves.get(i).at())).isGreaterThanOrEqualTo(settings.window());
      }
    }
  }

  private static List<EndpointSpec> endpoints(List<EndpointState> states) {
    List<EndpointSpec> out = new ArrayList<>();
    for (int i = 0; i < states.size(); i++) {
      out.add(new EndpointSpec("10.0.0." + (i + 1), 8080, "", 1, 0, states.get(i), "", i == 0 ? null : 100 + 50 * i));
    }
    return out;
  }

  @Provide
  Arbitrary<List<Tick>> ticks() {
    Arbitrary<EndpointState> state = Arbitraries.of(EndpointState.READY, EndpointState.READY, EndpointState.DEGRADED,
        EndpointState.DRAINING, EndpointState.EJECTED);
    // Demand moves around the limits (100..450 rps of capacity) and far over them.
    Arbitrary<Integer> demand = Arbitraries.oneOf(Arbitraries.integers().between(0, 600),
        Arbitraries.integers().between(0, 5000));
    Arbitrary<Tick> tick = Combinators.combine(state.list().ofSize(3), demand,
        Arbitraries.integers().between(0, 9).map(n -> n > 1)).as(Tick::new);
    return tick.list().ofMinSize(1).ofMaxSize(80);
  }

  @Provide
  Arbitrary<Settings> settings() {
    return Combinators.combine(Arbitraries.of(0.5, 0.8, 1.0), Arbitraries.of(10_000, 100_000, 250_000),
        Arbitraries.of(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)))
        .as(Settings::new);
  }
}
