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
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Validation before guards (issue 41), through the writer: a reload the config guard would hold is
 * refused with its violations when it is invalid, a held one that becomes invalid is refused while
 * held, and a confirmation never publishes what {@code validate} refuses.
 */
class ValidationBeforeGuardsTest {

  private static final String CONFIG = """
      store: { url: memory }
      listeners:
        - name: greeter
          apiListener: true
          routeConfig: greeter
      routeConfigs:
        - name: greeter
          virtualHosts:
            - name: greeter
              domains: [ "*" ]
              routes:
                - match: { prefix: "" }
                  cluster: greeter
      clusters:
        - name: greeter
        - name: b
        - name: c
      """;

  private final Clock clock = Clock.systemUTC();
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private AdsServer xds;
  private Reconciler reconciler;
  private long offered;

  @BeforeEach
  void start() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    xds = AdsServer.start("127.0.0.1", 0, clock, meters);
    reconciler = new Reconciler(clock, store, xds, new DesiredStateValidator(), new IncrementalTranslator(),
        new EnvoyResourceValidator()::validate, Duration.ofMillis(1), Duration.ofMillis(10), meters);
    reconciler.offerSource(new SourceState("file:/endpoints.yaml", 1, SourceHealth.FRESH, Map.of("greeter",
        List.of(new EndpointSpec("10.0.0.1", 8080, "a", 1, 0, EndpointState.READY, "file:/endpoints.yaml"))),
        List.of()));
    reconciler.role(Role.standalone(store));
    reconciler.start(null);
    offer(CONFIG);
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.status().epoch() == 1);
  }

  @AfterEach
  void stop() {
    reconciler.close();
    xds.close();
  }

  /** Offers {@code yaml} as the config file's reload and waits until a build has seen it. */
  private void offer(String yaml) {
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(yaml, "signalbox.yaml",
        Path.of("/"))).value();
    long begun = reconciler.buildsStarted();
    reconciler.offerConfig(DesiredStateTemplate.of(config.desiredStates(), config::clusterFor),
        "config reload " + ++offered);
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.buildsFinished() > begun);
  }

  private List<String> standingRejection() {
    LastRejection r = reconciler.status().lastRejection();
    return r == null || r.superseded() ? List.of() : r.violations();
  }

  @Test
  void renamingTheOnlyListenerToNothingIsRefusedAtOnceNotHeld() {
    offer(CONFIG.replace("- name: greeter\n    apiListener", "- name: \"\"\n    apiListener"));

    assertThat(reconciler.view().held()).as("nothing waits for confirm").isEmpty();
    assertThat(standingRejection()).isNotEmpty().allSatisfy(v -> assertThat(v).contains("listener"));
    assertThat(reconciler.status().epoch()).isEqualTo(1);
  }

  @Test
  void aHeldReloadEditedIntoAnInvalidOneIsRefusedWhileHeld() {
    String twoOfThreeRemoved = CONFIG.replace("  - name: b\n  - name: c\n", "");
    offer(twoOfThreeRemoved);
    assertThat(reconciler.view().held()).extracting(HeldUpdates.Held::rule).containsExactly(ConfigHolds.RULE);
    assertThat(standingRejection()).isEmpty();

    offer(twoOfThreeRemoved.replace("cluster: greeter", "cluster: nowhere"));

    assertThat(reconciler.view().held()).isEmpty();
    assertThat(standingRejection()).anySatisfy(v -> assertThat(v).contains("nowhere"));
    assertThat(reconciler.status().epoch()).isEqualTo(1);
  }

  @Test
  void confirmingTheHeldNamesNeverPublishesAnInvalidEditOfThem() {
    String twoOfThreeRemoved = CONFIG.replace("  - name: b\n  - name: c\n", "");
    offer(twoOfThreeRemoved);
    String fingerprint = reconciler.view().heldFingerprints().get(ConfigHolds.TARGET);
    assertThat(fingerprint).isNotNull();

    // The same declared names (the same fingerprint), one value out of range.
    String invalid = twoOfThreeRemoved.replace("clusters:\n  - name: greeter\n",
        "clusters:\n  - name: greeter\n    maxEjectionPercent: 150\n");
    offer(invalid);
    assertThat(reconciler.interventions().confirm(ConfigHolds.TARGET, fingerprint, "test"))
        .isInstanceOf(Outcome.Applied.class);
    reconciler.poke("confirmed");
    long begun = reconciler.buildsStarted();
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.buildsFinished() > begun);

    assertThat(reconciler.status().epoch()).as("nothing published").isEqualTo(1);
    assertThat(standingRejection()).anySatisfy(v -> assertThat(v).contains("150"));

    // Fixed: the confirmation of those names still stands (a refused build spends nothing), and applies it.
    offer(twoOfThreeRemoved);
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.status().epoch() == 2);
    assertThat(reconciler.published().resources(io.signalbox.controlplane.snapshot.XdsType.CLUSTER).byName())
        .containsOnlyKeys("greeter");
  }

  @Test
  void anEndpointUpdateTheMassRemovalGuardWouldHoldIsRefusedWhenInvalid() {
    // Replaces the only endpoint (a 100% removal, held when valid) by one of weight 0, as a source
    // that checks nothing itself might.
    long begun = reconciler.buildsStarted();
    reconciler.offerSource(new SourceState("file:/endpoints.yaml", 2, SourceHealth.FRESH, Map.of("greeter",
        List.of(new EndpointSpec("10.0.0.2", 8080, "a", 0, 0, EndpointState.READY, "file:/endpoints.yaml"))),
        List.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.buildsFinished() > begun);

    assertThat(reconciler.view().held()).as("refused, not held").isEmpty();
    assertThat(standingRejection()).anySatisfy(v -> assertThat(v).contains("weight"));

    // The same replacement, valid: held by the guard as before.
    long again = reconciler.buildsStarted();
    reconciler.offerSource(new SourceState("file:/endpoints.yaml", 3, SourceHealth.FRESH, Map.of("greeter",
        List.of(new EndpointSpec("10.0.0.2", 8080, "a", 1, 0, EndpointState.READY, "file:/endpoints.yaml"))),
        List.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> reconciler.buildsFinished() > again);
    assertThat(reconciler.view().held()).extracting(HeldUpdates.Held::cluster).containsExactly("greeter");
    assertThat(reconciler.status().epoch()).isEqualTo(1);
  }
}
