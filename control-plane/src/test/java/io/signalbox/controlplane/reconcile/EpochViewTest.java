package io.signalbox.controlplane.reconcile;

import static io.signalbox.controlplane.reconcile.StoredEpochs.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The value readers get after each build: what is served, every hold (the config's first, then the
 * clusters'), their fingerprints, the drains, and each served cluster as configured, shared with
 * the view before while neither the configuration nor the served clusters changed.
 */
class EpochViewTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final StoredEpochs epochs = new StoredEpochs(new InMemorySnapshotStore(clock), clock);
  private final ServedEndpoints served = new ServedEndpoints();
  private final ConfigHolds configHolds = new ConfigHolds();

  private static DesiredStateTemplate config(String... clusters) {
    return endpoints -> new DesiredState("signalbox.yaml", List.of(new ListenerSpec("l", true, null, null, "l")),
        List.of(new RouteConfigSpec("l", List.of())),
        java.util.Arrays.stream(clusters).map(c -> ClusterSpec.named(c).with(ClusterSpec.Balancing.of(
            LbPolicy.LEAST_REQUEST))).toList(), Map.of());
  }

  private Snapshot webAndApi() {
    return epochs.cluster("web", LbPolicy.ROUND_ROBIN, endpoint(80, EndpointState.READY),
        endpoint(81, EndpointState.READY)).cluster("api", LbPolicy.ROUND_ROBIN, endpoint(90, EndpointState.READY))
        .append();
  }

  @Test
  void noneServesNothingAndHoldsNothing() {
    assertThat(EpochView.NONE.snapshot()).isNull();
    assertThat(EpochView.NONE.held()).isEmpty();
    assertThat(EpochView.NONE.clusters()).isEmpty();
  }

  @Test
  void everyServedClusterIsShownAsConfiguredOrWithTheDefaults() {
    Snapshot s = webAndApi();

    EpochView view = EpochView.next(EpochView.NONE, s, new ClusterSpecs(config("web")), served, configHolds,
        Map.of());

    assertThat(view.snapshot()).isSameAs(s);
    assertThat(view.clusters()).containsOnlyKeys("web", "api");
    assertThat(view.clusters().get("web").balancing().lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
    assertThat(view.clusters().get("api").balancing().lbPolicy()).isNotEqualTo(LbPolicy.LEAST_REQUEST);
  }

  @Test
  void theClustersAreSharedWhileTheConfigurationAndTheServedClustersStayTheSame() {
    ClusterSpecs specs = new ClusterSpecs(config("web"));
    EpochView first = EpochView.next(EpochView.NONE, webAndApi(), specs, served, configHolds, Map.of());

    EpochView same = EpochView.next(first, webAndApi(), specs, served, configHolds, Map.of());
    EpochView newConfig = EpochView.next(same, webAndApi(), new ClusterSpecs(config("web", "api")), served,
        configHolds, Map.of());

    assertThat(same.clusters()).isSameAs(first.clusters());
    assertThat(newConfig.clusters()).isNotSameAs(same.clusters());
    assertThat(newConfig.clusters().get("api").balancing().lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
  }

  @Test
  void aClusterAddedIsLookedUpAgain() {
    ClusterSpecs specs = new ClusterSpecs(config("web"));
    Snapshot webOnly = epochs.cluster("web", LbPolicy.ROUND_ROBIN, endpoint(80, EndpointState.READY)).append();
    EpochView first = EpochView.next(EpochView.NONE, webOnly, specs, served, configHolds, Map.of());

    EpochView next = EpochView.next(first, webAndApi(), specs, served, configHolds, Map.of());

    assertThat(next.clusters()).containsOnlyKeys("web", "api");
  }

  @Test
  void theConfigsHoldComesFirstThenTheClustersEachWithItsFingerprint() {
    DesiredStateTemplate three = config("web", "api", "db");
    configHolds.admit(three, Map.of(), T0, t -> true);
    configHolds.built(three);
    configHolds.admit(config("web"), Map.of(), T0, t -> true);
    Snapshot published = webAndApi();
    served.apply(Map.of("web", List.of(), "api", List.of(endpoint(90, EndpointState.READY))), Intent.NONE,
        published, new ClusterSpecs(null), ref -> false, T0);

    EpochView view = EpochView.next(EpochView.NONE, published, new ClusterSpecs(three), served, configHolds,
        Map.of());

    assertThat(view.held()).extracting(HeldUpdates.Held::cluster).containsExactly(null, "web");
    assertThat(view.heldFingerprints()).containsOnlyKeys(ConfigHolds.TARGET, "web");
    assertThat(view.heldFingerprints().get("web")).isEqualTo(served.heldFingerprint("web"));
    assertThat(view.heldFingerprints().get(ConfigHolds.TARGET)).isEqualTo(configHolds.fingerprint());
  }

  @Test
  void theViewKeepsItsOwnCopiesOfWhatItWasGiven() {
    Map<EndpointRef, Long> draining = new HashMap<>(Map.of(new EndpointRef("web", "10.0.0.1", 80), 4L));
    List<HeldUpdates.Held> held = new ArrayList<>();
    EpochView view = new EpochView(null, held, Map.of(), draining, Map.of(), new ClusterSpecs(null));

    draining.clear();
    held.add(new HeldUpdates.Held("web", "guard", "m", T0));

    assertThat(view.drainingSince()).containsOnlyKeys(new EndpointRef("web", "10.0.0.1", 80));
    assertThat(view.held()).isEmpty();
  }

  @Test
  void withNothingServedNoClusterIsShown() {
    assertThat(EpochView.next(EpochView.NONE, null, new ClusterSpecs(config("web")), served, configHolds, Map.of())
        .clusters()).isEmpty();
  }
}
