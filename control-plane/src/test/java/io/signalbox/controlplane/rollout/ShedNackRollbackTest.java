package io.signalbox.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.IncrementalTranslator;
import io.signalbox.controlplane.reconcile.Outcome;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.replica.Role;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.InProcessAds;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.SnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shedding never hides a NACK (issue 31): a client that refuses an assignment because of its
 * {@code drop_overloads} is rolled back like any other refusal, to the last safe epoch's assignment
 * without the drop, through the real writer, rollout controller and quarantine.
 */
class ShedNackRollbackTest {

  @Test
  void aClientThatRefusesTheDropIsRolledBackToTheLastSafeAssignmentWithoutIt() throws Exception {
    Clock clock = Clock.systemUTC();
    try (SnapshotStore store = new InMemorySnapshotStore(clock)) {
      InProcessAds ads = new InProcessAds(clock);
      Reconciler reconciler = new Reconciler(clock, store, ads, new DesiredStateValidator(),
          new IncrementalTranslator(), new EnvoyResourceValidator()::validate, Duration.ofMillis(1),
          Duration.ofMillis(5), new SimpleMeterRegistry());
      RolloutController rollout = null;
      try {
        reconciler.role(Role.standalone(store));
        reconciler.start(null);
        SignalboxConfig config = new SignalboxConfig(null, null, null, null, null, null, null, null, List.of(),
            List.of(), List.of(ClusterSpec.named("web")));
        reconciler.offerSource(new SourceState("files", 1, SourceHealth.FRESH, Map.of("web", List.of(
            new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "test"),
            new EndpointSpec("10.0.0.2", 80, "a", 1, 0, EndpointState.READY, "test"))), List.of()));
        reconciler.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor), "startup");
        rollout = new RolloutController(clock, new RolloutPolicy(Waves.NONE, Duration.ZERO, true), reconciler, ads,
            store);
        InProcessAds.Client client = ads.connect("grpc-1");
        client.subscribe(XdsType.CLUSTER, List.of());
        client.subscribe(XdsType.ENDPOINT, List.of("web"));
        step(reconciler);
        answer(client);
        RolloutController r = rollout;
        await().atMost(Duration.ofSeconds(30)).until(() -> {
          r.check();
          return reconciler.interventions().lastSafeEpoch() > 0;
        });
        long safe = reconciler.interventions().lastSafeEpoch();

        assertThat(reconciler.interventions().shed("web", "signalbox_operator", 500_000, "alice", "overload"))
            .isInstanceOf(Outcome.Applied.class);
        step(reconciler);
        long shedding = reconciler.view().snapshot().epoch();
        assertThat(assignment(reconciler.view().snapshot()).getPolicy().getDropOverloadsCount()).isEqualTo(1);
        answer(client);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
          r.check();
          step(reconciler);
          return reconciler.view().snapshot().epoch() > shedding;
        });

        Snapshot restored = reconciler.view().snapshot();
        assertThat(assignment(restored).getPolicy().getDropOverloadsList()).isEmpty();
        assertThat(assignment(restored)).isEqualTo(assignment(reconciler.snapshot(safe)));
        assertThat(store.epoch(shedding).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
        // The drop is still the operator's intent: it stays stored, held back by the quarantine.
        assertThat(reconciler.interventions().intent().drops()).hasSize(1);
      } finally {
        if (rollout != null) {
          rollout.close();
        }
        reconciler.close();
      }
    }
  }

  /** ACKs what carries no drop, NACKs an assignment with one, as a client without drop support would. */
  private static void answer(InProcessAds.Client client) throws InvalidProtocolBufferException {
    for (int round = 0; round < 8 && !client.unanswered().isEmpty(); round++) {
      for (Map.Entry<XdsType, DiscoveryResponse> e : Map.copyOf(client.unanswered()).entrySet()) {
        boolean drops = false;
        if (e.getKey() == XdsType.ENDPOINT) {
          for (var any : e.getValue().getResourcesList()) {
            drops |= any.unpack(ClusterLoadAssignment.class).getPolicy().getDropOverloadsCount() > 0;
          }
        }
        if (drops) {
          client.nack(e.getKey(), "drop_overloads: not supported");
        } else {
          client.ack(e.getKey());
        }
      }
    }
  }

  private static ClusterLoadAssignment assignment(Snapshot s) throws InvalidProtocolBufferException {
    var r = s.resources(XdsType.ENDPOINT).get("web");
    return r.content(ClusterLoadAssignment.class);
  }

  private static void step(Reconciler reconciler) {
    long begun = reconciler.buildsStarted();
    reconciler.poke("step");
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciler.buildsFinished() > begun);
  }
}
