package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.replica.Role;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconciler keeps the epoch log at {@code store.retainEpochs}, sparing the last safe epoch. */
class RetentionTest {

  private static final String CONFIG = """
      store: { url: memory }
      clusters:
        - name: greeter
          connectTimeout: 1s
      """;

  private final Clock clock = Clock.systemUTC();
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private AdsServer xds;
  private Reconciler reconciler;
  private long generation;

  @BeforeEach
  void start() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    xds = AdsServer.start("127.0.0.1", 0, clock, meters);
    EnvoyResourceValidator envoyRules = new EnvoyResourceValidator();
    reconciler = new Reconciler(clock, store, xds, new DesiredStateValidator(), new IncrementalTranslator(),
        envoyRules::validate, Duration.ofMillis(1), Duration.ofMillis(10), meters);
    reconciler.retainEpochs(3);
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(CONFIG, "signalbox.yaml", Path.of("/")))
        .value();
    reconciler.offerConfig(config::desiredState, "startup");
    offerEndpointOn(8001);
    reconciler.role(Role.standalone(store));
    reconciler.start(null);
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.status().epoch() == 1);
  }

  @AfterEach
  void stop() {
    reconciler.close();
    xds.close();
  }

  /** Publishes one epoch whose newest endpoint listens on {@code port}, and waits for it. */
  private long publishWithEndpointOn(int port) {
    long before = reconciler.status().epoch();
    offerEndpointOn(port);
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.status().epoch() > before);
    return reconciler.status().epoch();
  }

  /** Endpoints on 8001..{@code port}: each epoch adds one (replacing them would trip the mass-removal guard). */
  private void offerEndpointOn(int port) {
    List<EndpointSpec> endpoints = new java.util.ArrayList<>();
    for (int p = 8001; p <= port; p++) {
      endpoints.add(new EndpointSpec("10.0.0.1", p, "a", 1, 0, EndpointState.READY, "test"));
    }
    reconciler.offerSource(new SourceState("test", ++generation, SourceHealth.FRESH, Map.of("greeter", endpoints),
        List.of()));
  }

  private List<Long> storedEpochs() {
    return store.epochs(1000, Long.MAX_VALUE).stream().map(EpochRecord::epoch).toList();
  }

  @Test
  void prunesToTheNewestRetainedEpochsEveryTenthEpochAndKeepsTheLastSafeOne() {
    for (int i = 2; i <= 4; i++) {
      publishWithEndpointOn(8000 + i);
    }
    long safe = reconciler.status().epoch();
    assertThat(safe).isEqualTo(4);
    reconciler.interventions().lastSafe(safe);
    for (int i = 5; i <= 9; i++) {
      publishWithEndpointOn(8000 + i);
    }
    assertThat(storedEpochs()).as("nothing is pruned before the tenth epoch").hasSize(9);

    long tenth = publishWithEndpointOn(8010);
    // Pruning follows the publish on its own thread.
    await().atMost(Duration.ofSeconds(10)).until(() -> storedEpochs().size() < 10);

    // Kept: the newest three and the last safe one, plus the older epochs they are stored as deltas
    // on (back to each one's full checkpoint), which must stay for them to load.
    List<Long> stored = storedEpochs();
    assertThat(stored).startsWith(tenth, tenth - 1, tenth - 2).contains(safe).hasSizeLessThan(10);
    stored.forEach(epoch -> assertThat(store.load(epoch)).as("epoch %d loads", epoch).isPresent());
    assertThat(store.latest()).hasValueSatisfying(e -> assertThat(e.getEpoch()).isEqualTo(tenth));
    assertThat(publishWithEndpointOn(8011)).as("pruning never lowers the numbering").isEqualTo(tenth + 1);
  }
}
