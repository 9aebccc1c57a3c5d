package io.signalbox.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LifecycleTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final EndpointSpec A = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointSpec B = new EndpointSpec("10.0.0.2", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointRef REF_A = new EndpointRef("web", "10.0.0.1", 80);

  private static EndpointState stateOf(Lifecycle.Result r, String address) {
    return r.endpoints().get("web").stream().filter(e -> e.address().equals(address)).findFirst().orElseThrow().state();
  }

  @Test
  void anOperatorsWeightKeepsWhatTheSourceSaysTheEndpointCanServe() {
    EndpointSpec declared = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x", 100);
    var weight = new OperatorOverride.Weight(REF_A, "alice", "", T0, 7);

    Lifecycle.Result r = Lifecycle.apply(Map.of("web", List.of(declared, B)), List.of(weight), List.of(), T0);

    assertThat(r.endpoints().get("web").get(0))
        .isEqualTo(new EndpointSpec("10.0.0.1", 80, "a", 7, 0, EndpointState.READY, "file:x", 100));
  }

  @Test
  void anOperatorDrainBeatsTheSourceUntilUndone() {
    var drain = new OperatorOverride.Drain(REF_A, "alice", "kernel upgrade", T0, Duration.ofSeconds(30));

    Lifecycle.Result r = Lifecycle.apply(Map.of("web", List.of(A, B)), List.of(drain), List.of(), T0.plusSeconds(3600));

    assertThat(stateOf(r, "10.0.0.1")).isEqualTo(EndpointState.DRAINING);
    assertThat(stateOf(r, "10.0.0.2")).isEqualTo(EndpointState.READY);
    assertThat(r.causes()).containsEntry(REF_A, "drained by alice: kernel upgrade");
    assertThat(r.nextChange()).isNull();
  }

  @Test
  void anEjectionEndsThenTheEndpointWarmsBeforeItIsReadyAgain() {
    var eject = new OperatorOverride.Eject(REF_A, "bob", "", T0, T0.plusSeconds(30), Duration.ofSeconds(10));
    var sources = Map.of("web", List.of(A, B));

    Lifecycle.Result during = Lifecycle.apply(sources, List.of(eject), List.of(), T0.plusSeconds(5));
    Lifecycle.Result warming = Lifecycle.apply(sources, List.of(eject), List.of(), T0.plusSeconds(35));
    Lifecycle.Result after = Lifecycle.apply(sources, List.of(eject), List.of(), T0.plusSeconds(40));

    assertThat(stateOf(during, "10.0.0.1")).isEqualTo(EndpointState.EJECTED);
    assertThat(during.nextChange()).isEqualTo(T0.plusSeconds(30));
    assertThat(stateOf(warming, "10.0.0.1")).isEqualTo(EndpointState.WARMING);
    assertThat(warming.nextChange()).isEqualTo(T0.plusSeconds(40));
    assertThat(stateOf(after, "10.0.0.1")).isEqualTo(EndpointState.READY);
  }

  @Test
  void anEndpointASourceRemovedDrainsUntilItIsDue() {
    var departure = new Lifecycle.Departure(REF_A, A, T0, T0.plusSeconds(30));

    Lifecycle.Result draining = Lifecycle.apply(Map.of("web", List.of(B)), List.of(), List.of(departure), T0.plusSeconds(1));
    Lifecycle.Result gone = Lifecycle.apply(Map.of("web", List.of(B)), List.of(), List.of(departure), T0.plusSeconds(30));

    assertThat(stateOf(draining, "10.0.0.1")).isEqualTo(EndpointState.DRAINING);
    assertThat(draining.nextChange()).isEqualTo(T0.plusSeconds(30));
    assertThat(gone.endpoints().get("web")).containsExactly(B);
  }

  @Test
  void repeatOffendersStayOutLonger() {
    Duration base = Duration.ofSeconds(30);
    Duration max = Duration.ofMinutes(5);

    assertThat(Lifecycle.ejectionTime(base, 0, max)).isEqualTo(Duration.ofSeconds(30));
    assertThat(Lifecycle.ejectionTime(base, 1, max)).isEqualTo(Duration.ofSeconds(60));
    assertThat(Lifecycle.ejectionTime(base, 3, max)).isEqualTo(Duration.ofSeconds(240));
    assertThat(Lifecycle.ejectionTime(base, 10, max)).isEqualTo(max);
  }

  @Test
  void refusesAnEjectionPastTheCapWithAnExactMessage() {
    var endpoints = List.of(A, B, new EndpointSpec("10.0.0.3", 80, "a", 1, 0, EndpointState.EJECTED, "x"));

    assertThat(Lifecycle.ejectionRefusal("web", endpoints, REF_A, 10))
        .isEqualTo("ejecting 10.0.0.1:80 would eject 2 of 3 endpoints of cluster 'web' (66%), "
            + "more than maxEjectionPercent 10");
    assertThat(Lifecycle.ejectionRefusal("web", endpoints, REF_A, 70)).isNull();
  }

  @Test
  void oneEjectionIsAlwaysAllowedInAClusterOfTwoOrMore() {
    assertThat(Lifecycle.ejectionRefusal("web", List.of(A, B), REF_A, 10)).isNull();
    assertThat(Lifecycle.ejectionRefusal("web", List.of(A), REF_A, 10))
        .isEqualTo("ejecting 10.0.0.1:80 would eject 1 of 1 endpoints of cluster 'web' (100%), "
            + "more than maxEjectionPercent 10");
  }

  @Test
  void parsesEndpointReferencesIncludingBracketedIpv6() {
    assertThat(EndpointRef.parse("web", "10.0.0.1:8080")).isEqualTo(new EndpointRef("web", "10.0.0.1", 8080));
    assertThat(EndpointRef.parse("web", "[::1]:8080")).isEqualTo(new EndpointRef("web", "::1", 8080));
    assertThat(EndpointRef.parse("web", "[::1]:8080").key()).isEqualTo("[::1]:8080");
    assertThat(EndpointRef.parse("web", "::1:8080")).isNull();
    assertThat(EndpointRef.parse("web", "host:0")).isNull();
    assertThat(EndpointRef.parse("web", "host")).isNull();
  }

  @Test
  void aClusterNoOverrideOrDepartureTouchesKeepsItsSourceList() {
    List<EndpointSpec> web = List.of(A, B);
    List<EndpointSpec> api = List.of(new EndpointSpec("10.0.1.1", 80, "a", 1, 0, EndpointState.READY, "file:x"));
    var drain = new OperatorOverride.Drain(new EndpointRef("api", "10.0.1.1", 80), "alice", "", T0, Duration.ZERO);

    Lifecycle.Result r = Lifecycle.apply(Map.of("web", web, "api", api), List.of(drain), List.of(), T0);

    assertThat(r.endpoints().get("web")).isSameAs(web);
    assertThat(r.endpoints().get("api")).isNotSameAs(api).extracting(EndpointSpec::state)
        .containsExactly(EndpointState.DRAINING);
    assertThat(r.endpoints()).containsOnlyKeys("api", "web");
  }

  @Test
  void aDepartureIsAddedToACopyNeverToTheSourceList() {
    List<EndpointSpec> web = List.of(B);
    var departure = new Lifecycle.Departure(REF_A, A, T0, T0.plusSeconds(30));

    Lifecycle.Result r = Lifecycle.apply(Map.of("web", web), List.of(), List.of(departure), T0.plusSeconds(1));

    assertThat(web).containsExactly(B);
    assertThat(r.endpoints().get("web")).containsExactly(B, A.withState(EndpointState.DRAINING));
  }

  @Test
  void aDepartureOfAClusterNoSourceReportsAnyMoreStillDrains() {
    var departure = new Lifecycle.Departure(REF_A, A, T0, T0.plusSeconds(30));

    Lifecycle.Result r = Lifecycle.apply(Map.of(), List.of(), List.of(departure), T0.plusSeconds(1));

    assertThat(r.endpoints().get("web")).containsExactly(A.withState(EndpointState.DRAINING));
  }
}
