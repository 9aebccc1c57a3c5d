package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.embedded.PostgresExtension;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The writer's copy of the operator intent, kept up to date change by change, equals what a
 * restart would read from the store: a cache checked against a fresh computation. Random (seeded)
 * sequences of drains, undrains, weights, freezes, unfreezes, confirmations, forgotten
 * confirmations, drops (shed, unshed) and freezes of ejections, against both stores.
 */
class IntentCopyTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private static final List<EndpointRef> ENDPOINTS = List.of(new EndpointRef("web", "10.0.0.1", 80),
      new EndpointRef("web", "10.0.0.2", 80), new EndpointRef("api", "::1", 8080));

  @Test
  void theCopyEqualsWhatTheMemoryStoreReadsBack() {
    try (SnapshotStore store = new InMemorySnapshotStore(Clock.systemUTC())) {
      checkAgainst(store, 7);
    }
  }

  @Test
  void theCopyEqualsWhatPostgresReadsBack() {
    try (SnapshotStore store = postgres.openStore(Clock.systemUTC())) {
      checkAgainst(store, 11);
    }
  }

  private static void checkAgainst(SnapshotStore store, long seed) {
    Interventions interventions = new Interventions(Clock.systemUTC(), store, cause -> { }, () -> null, e -> null,
        new SimpleMeterRegistry());
    try {
      assertThat(interventions.load()).isTrue();
      Random random = new Random(seed);
      for (int step = 0; step < 60; step++) {
        EndpointRef e = ENDPOINTS.get(random.nextInt(ENDPOINTS.size()));
        String actor = "op" + random.nextInt(3);
        switch (random.nextInt(11)) {
          case 0 -> interventions.drain(e, Duration.ofSeconds(random.nextInt(60)), actor, "step " + step);
          case 1 -> interventions.undrain(e);
          case 2 -> interventions.weight(e, 1 + random.nextInt(100), actor, "");
          case 3 -> interventions.freeze(actor, "window " + step);
          case 4 -> interventions.unfreeze(actor);
          case 5 -> interventions.confirm(e.cluster(), "f" + random.nextInt(4), actor);
          case 6 -> interventions.shed(e.cluster(), "c" + random.nextInt(3), 1 + random.nextInt(1_000_000), actor,
              "step " + step);
          case 7 -> interventions.unshed(e.cluster(), random.nextBoolean() ? null : "c" + random.nextInt(3), actor, "");
          case 8 -> interventions.freezeEjections(actor, "incident " + step);
          case 9 -> interventions.unfreezeEjections(actor, "");
          default -> interventions.forgetConfirmations(Set.of(e.cluster()));
        }
        // forgetConfirmations runs on the intent thread in the background: await it.
        int at = step;
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(interventions.intent())
            .as("after step %d", at).isEqualTo(Intent.from(store.intent().read())));
      }
    } finally {
      interventions.close();
    }
  }
}
