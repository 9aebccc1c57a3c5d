package io.signalbox.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EjectionHoldTest {

  private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
  private static final String WHY = "ejections frozen by alice: incident 12";

  private static EndpointSpec endpoint(String address, EndpointState state) {
    return new EndpointSpec(address, 80, "a", 1, 0, state, "registry");
  }

  @Test
  void keepsAServedEndpointInItsStateWhenItsSourceEjectsIt() {
    Map<String, List<EndpointSpec>> published = Map.of("web",
        List.of(endpoint("10.0.0.1", EndpointState.READY), endpoint("10.0.0.2", EndpointState.DEGRADED)));
    Map<String, List<EndpointSpec>> next = Map.of("web",
        List.of(endpoint("10.0.0.1", EndpointState.EJECTED), endpoint("10.0.0.2", EndpointState.EJECTED)));

    EjectionHold.Result r = EjectionHold.apply(next, published, List.of(), WHY, T0);

    assertThat(r.endpoints().get("web")).extracting(EndpointSpec::state)
        .containsExactly(EndpointState.READY, EndpointState.DEGRADED);
    assertThat(r.held()).containsExactly(
        Map.entry(new EndpointRef("web", "10.0.0.1", 80),
            "ejection held: ejections frozen by alice: incident 12; served READY until 'signalbox unfreeze-ejections'"),
        Map.entry(new EndpointRef("web", "10.0.0.2", 80),
            "ejection held: ejections frozen by alice: incident 12; served DEGRADED until 'signalbox unfreeze-ejections'"));
  }

  @Test
  void letsAnOperatorsEjectionThrough() {
    EndpointRef ref = new EndpointRef("web", "10.0.0.1", 80);
    OperatorOverride eject = new OperatorOverride.Eject(ref, "bob", "bad disk", T0, T0.plusSeconds(30),
        Duration.ofSeconds(10));
    Map<String, List<EndpointSpec>> next = Map.of("web", List.of(endpoint("10.0.0.1", EndpointState.EJECTED)));

    EjectionHold.Result r = EjectionHold.apply(next,
        Map.of("web", List.of(endpoint("10.0.0.1", EndpointState.READY))), List.of(eject), WHY, T0);

    assertThat(r.endpoints()).isSameAs(next);
    assertThat(r.held()).isEmpty();
  }

  @Test
  void leavesAlreadyEjectedAndNewEndpointsAsTheyAre() {
    Map<String, List<EndpointSpec>> next = Map.of("web",
        List.of(endpoint("10.0.0.1", EndpointState.EJECTED), endpoint("10.0.0.9", EndpointState.EJECTED)));

    EjectionHold.Result r = EjectionHold.apply(next,
        Map.of("web", List.of(endpoint("10.0.0.1", EndpointState.EJECTED))), List.of(), WHY, T0);

    assertThat(r.endpoints()).isSameAs(next);
    assertThat(r.held()).isEmpty();
  }
}
