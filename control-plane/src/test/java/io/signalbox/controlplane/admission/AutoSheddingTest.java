package io.signalbox.controlplane.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.telemetry.FleetLoad;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Automatic shedding on a replica that starts leading: where its decisions start from. */
class AutoSheddingTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final String RAISED = "eligible capacity 100 rps (1 endpoints), limit 100.0 rps, demand 145.4 rps: "
      + "drop raised to 31.2%";

  /** The epoch a leader published with a drop of 31.2 %, as the store gives it back to another replica. */
  private static Snapshot publishedAndRestored() {
    ClusterLoadAssignment cla = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .setPolicy(ClusterLoadAssignment.Policy.newBuilder().addDropOverloads(
            ClusterLoadAssignment.Policy.DropOverload.newBuilder().setCategory(AutomaticDrops.CATEGORY)
                .setDropPercentage(FractionalPercent.newBuilder().setNumerator(312_000)
                    .setDenominator(FractionalPercent.DenominatorType.MILLION))))
        .build();
    Snapshot published = new InMemorySnapshotStore(CLOCK).append(new SnapshotBuilder().candidate(
        List.of(new TranslatedResource(XdsType.ENDPOINT, "web", cla, Set.of())),
        Map.of("web", List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x"))), null,
        Provenance.newBuilder().setCause("automatic shedding").putAutomaticDrops("web", RAISED).build())
        .sealer(CLOCK));
    return Snapshot.fromEnvelope(published.toEnvelope());
  }

  private static PublishedView view(Snapshot served) {
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse("""
        clusters:
          - name: web
            loadReporting: true
            capacity: { rps: 100 }
            admission: { maxUtilization: 1.0, step: 10, window: 30s }
        """, "signalbox.yaml", Path.of("/"))).value();
    return new PublishedView(served, null, List.of(), Map.of(), null, Map.of(), Map.of(),
        Map.of("web", config.clusterFor("web")), 0);
  }

  @Test
  void aNewLeaderStartsFromTheDropTheEpochRestoredFromTheStoreCarries() {
    PublishedView served = view(publishedAndRestored());
    List<String> handed = new ArrayList<>();
    AutoShedding shedding = new AutoShedding(CLOCK, FleetLoad.NONE, () -> served, () -> true,
        (drops, cause) -> handed.add(drops.byCluster() + " (" + cause + ")"));

    shedding.tick();

    // No reports yet: the drop in force holds a window; it is neither lifted nor recomputed from nothing.
    String held = "eligible capacity 100 rps (1 endpoints), limit 100.0 rps; no fresh load reports since " + NOW
        + ", drop 31.2% held";
    assertThat(handed).containsExactly(Map.of("web", new AutomaticDrops.Entry(312_000, held))
        + " (automatic shedding (web: " + held + "))");
    assertThat(shedding.current().perMillion("web")).isEqualTo(312_000);
  }

  @Test
  void handsTheWriterItsDropsHoldingNoLockOfItsOwn() {
    PublishedView served = view(publishedAndRestored());
    List<Boolean> underLock = new ArrayList<>();
    AutoShedding[] shedding = new AutoShedding[1];
    // The writer takes its own lock to rebuild; called back under ours, a reader of ours waiting on
    // the writer would deadlock (STYLE: never call foreign code under a lock; issue 41).
    shedding[0] = new AutoShedding(CLOCK, FleetLoad.NONE, () -> served, () -> true,
        (drops, cause) -> underLock.add(Thread.holdsLock(shedding[0])));

    shedding[0].tick();

    assertThat(underLock).containsExactly(false);
  }
}
