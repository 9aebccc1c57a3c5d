package io.signalbox.controlplane.reconcile;

import static io.signalbox.controlplane.reconcile.StoredEpochs.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoints as they are served, step by step from what the sources say: the operator's
 * overrides, endpoints that left their source and drain first, the freeze of ejections, and the
 * guard that holds a mass removal back. The caller supplies the time, so every deadline is exact.
 */
class ServedEndpointsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final ClusterSpecs DEFAULTS = new ClusterSpecs(null);

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final StoredEpochs epochs = new StoredEpochs(new InMemorySnapshotStore(clock), clock);
  private final ServedEndpoints served = new ServedEndpoints();
  private Snapshot published;

  @BeforeEach
  void fourServed() {
    published = epochs.cluster("web", LbPolicy.ROUND_ROBIN, ready(80), ready(81), ready(82), ready(83)).append();
  }

  private static EndpointSpec ready(int port) {
    return endpoint(port, EndpointState.READY);
  }

  private static Map<String, List<EndpointSpec>> sources(EndpointSpec... web) {
    return Map.of("web", List.of(web));
  }

  private static Intent with(List<OperatorOverride> overrides, StoredIntent.Freeze ejectionFreeze) {
    return new Intent(null, overrides, Map.of(), Map.of(), Map.of(), ejectionFreeze, List.of());
  }

  private static Map<Integer, EndpointState> states(ServedEndpoints.Result r) {
    Map<Integer, EndpointState> s = new java.util.TreeMap<>();
    r.endpoints().get("web").forEach(e -> s.put(e.port(), e.state()));
    return s;
  }

  @Test
  void withNothingPublishedTheSourcesAreServedAsTheySay() {
    ServedEndpoints.Result r = served.apply(sources(ready(80)), Intent.NONE, null, DEFAULTS, ref -> false, T0);

    assertThat(r.endpoints()).isEqualTo(sources(ready(80)));
    assertThat(r.nextChange()).isNull();
    assertThat(served.held()).isEmpty();
  }

  @Test
  void anOperatorsDrainIsServedWithItsCause() {
    EndpointRef web80 = new EndpointRef("web", "10.0.0.1", 80);
    Intent intent = with(List.of(new OperatorOverride.Drain(web80, "alice", "deploy", T0, Duration.ofMinutes(5))),
        null);

    ServedEndpoints.Result r = served.apply(sources(ready(80), ready(81), ready(82), ready(83)), intent, published,
        DEFAULTS, ref -> false, T0);

    assertThat(states(r)).containsEntry(80, EndpointState.DRAINING).containsEntry(81, EndpointState.READY);
    assertThat(r.causes()).containsEntry(web80, "drained by alice: deploy");
  }

  @Test
  void anEndpointItsSourceRemovedDrainsForTheTimeoutThenUntilEveryClientAckedIt() {
    EndpointRef web83 = new EndpointRef("web", "10.0.0.1", 83);
    Map<String, List<EndpointSpec>> without83 = sources(ready(80), ready(81), ready(82));

    ServedEndpoints.Result leaving = served.apply(without83, Intent.NONE, published, DEFAULTS, ref -> false, T0);

    assertThat(states(leaving)).containsEntry(83, EndpointState.DRAINING);
    assertThat(leaving.causes()).containsEntry(web83,
        "removed by its source at " + T0 + "; draining until " + T0.plusSeconds(30));
    assertThat(leaving.nextChange()).isEqualTo(T0.plusSeconds(30));

    Instant late = T0.plusSeconds(31);
    ServedEndpoints.Result unacked = served.apply(without83, Intent.NONE, published, DEFAULTS, ref -> false, late);
    assertThat(states(unacked)).as("not every client holds the drain yet").containsEntry(83, EndpointState.DRAINING);
    assertThat(unacked.nextChange()).isEqualTo(late.plusSeconds(1));

    ServedEndpoints.Result gone = served.apply(without83, Intent.NONE, published, DEFAULTS, web83::equals, late);
    assertThat(states(gone)).containsOnlyKeys(80, 81, 82);
  }

  @Test
  void aMassRemovalIsHeldBackWithItsReasonAndFingerprint() {
    ServedEndpoints.Result r = served.apply(sources(ready(80)), Intent.NONE, published, DEFAULTS, ref -> false, T0);

    assertThat(r.endpoints()).isEqualTo(published.endpoints());
    assertThat(served.held()).singleElement().satisfies(h -> {
      assertThat(h.cluster()).isEqualTo("web");
      assertThat(h.message()).isEqualTo(
          "cluster 'web': one update takes 3 of 4 eligible endpoints out (75%), more than massRemovalPercent 50");
      assertThat(h.since()).isEqualTo(T0);
    });
    assertThat(served.heldFingerprint("web")).isNotBlank();
    assertThat(served.heldFingerprint("api")).isNull();
  }

  @Test
  void theLifecycleAloneDoesNotHoldAMassRemovalSoItCanBeValidatedFirst() {
    ServedEndpoints.Unguarded u = served.lifecycle(sources(ready(80)), Intent.NONE, published, DEFAULTS,
        ref -> false, T0);

    assertThat(u.endpoints().get("web")).extracting(EndpointSpec::port, EndpointSpec::state).contains(
        org.assertj.core.groups.Tuple.tuple(81, EndpointState.DRAINING));
    assertThat(served.held()).isEmpty();
  }

  @Test
  void whileEjectionsAreFrozenASourcesEjectionIsHeldAndSaysWhy() {
    EndpointRef web80 = new EndpointRef("web", "10.0.0.1", 80);
    StoredIntent.Freeze freeze = new StoredIntent.Freeze("alice", "incident 12", T0);

    ServedEndpoints.Result r = served.apply(sources(endpoint(80, EndpointState.EJECTED), ready(81), ready(82),
        ready(83)), with(List.of(), freeze), published, DEFAULTS, ref -> false, T0);

    String why = "ejection held: ejections frozen by alice: incident 12; served READY until "
        + "'signalbox unfreeze-ejections'";
    assertThat(states(r)).containsEntry(80, EndpointState.READY);
    assertThat(served.heldEjections()).containsExactly(Map.entry(web80, why));
    assertThat(r.causes()).containsEntry(web80, why);

    served.apply(sources(endpoint(80, EndpointState.EJECTED), ready(81), ready(82), ready(83)), Intent.NONE,
        published, DEFAULTS, ref -> false, T0);
    assertThat(served.heldEjections()).as("unfrozen").isEmpty();
  }
}
