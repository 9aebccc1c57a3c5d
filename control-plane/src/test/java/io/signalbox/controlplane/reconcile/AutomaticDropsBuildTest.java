package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.source.FakeClock;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.StoredIntent;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The automatic drop as a build input: it follows the operator's drops in the assignment, its cause
 * is in the epoch's provenance, and a build that has no decision yet (a new leader) keeps the drop
 * the parent epoch carries, also when the parent was restored from the store (a follower's, a new
 * leader's).
 */
class AutomaticDropsBuildTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final String CAUSE = "eligible capacity 100 rps (1 endpoints), limit 100.0 rps, demand 200.0 rps: "
      + "drop raised to 50.0%";
  private final FakeClock clock = new FakeClock(NOW);
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final Candidates candidates = new Candidates(clock, new DesiredStateValidator(), new IncrementalTranslator(),
      new EnvoyResourceValidator()::validate, epoch -> null);
  private final DesiredStateTemplate template = template();

  private static DesiredStateTemplate template() {
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse("clusters:\n  - name: web\n",
        "signalbox.yaml", Path.of("/"))).value();
    return config::desiredState;
  }

  private static final SourceState SOURCE = new SourceState("file:x", 1, SourceHealth.FRESH,
      Map.of("web", List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x"))), List.of());

  private Snapshot build(Intent intent, Snapshot parent, AutomaticDrops automatic) {
    Candidates.Result r = candidates.next(new Candidates.Input(template, new ClusterSpecs(template), List.of(SOURCE),
        intent, parent, Set.of(), Provenance.newBuilder().setCause("test").build(), automatic));
    assertThat(r).isInstanceOf(Candidates.Built.class);
    return store.append(((Candidates.Built) r).candidate().sealer(clock));
  }

  private static List<String> drops(Snapshot s) {
    ClusterLoadAssignment cla = s.resources(XdsType.ENDPOINT).get("web").content(ClusterLoadAssignment.class);
    return cla.getPolicy().getDropOverloadsList().stream()
        .map(d -> d.getCategory() + " " + d.getDropPercentage().getNumerator()).toList();
  }

  @Test
  void theAutomaticDropFollowsTheOperatorsAndItsCauseIsInTheProvenance() {
    Intent operator = new Intent(null, List.of(), Map.of(), Map.of(), Map.of(), null,
        List.of(new StoredIntent.Drop("web", "batch", 200_000, "alice", "incident", NOW)));
    AutomaticDrops automatic = new AutomaticDrops(true, Map.of("web", new AutomaticDrops.Entry(500_000, CAUSE)));

    Snapshot s = build(operator, null, automatic);

    assertThat(drops(s)).containsExactly("batch 200000", "signalbox_overload 500000");
    assertThat(s.provenance().getAutomaticDropsMap()).containsExactly(Map.entry("web", CAUSE));
    assertThat(AutomaticDrops.inherited(s)).isEqualTo(automatic);
  }

  @Test
  void aBuildWithoutADecisionKeepsTheParentsDropAndADecisionWithoutOneLiftsIt() {
    Snapshot shed = build(Intent.NONE, null,
        new AutomaticDrops(true, Map.of("web", new AutomaticDrops.Entry(500_000, CAUSE))));

    Snapshot newLeader = build(Intent.NONE, shed, AutomaticDrops.INHERITED);
    Snapshot lifted = build(Intent.NONE, newLeader, new AutomaticDrops(true, Map.of()));

    assertThat(drops(newLeader)).containsExactly("signalbox_overload 500000");
    assertThat(newLeader.provenance().getAutomaticDropsMap()).containsExactly(Map.entry("web", CAUSE));
    assertThat(drops(lifted)).isEmpty();
    assertThat(lifted.provenance().getAutomaticDropsMap()).isEmpty();
  }

  @Test
  void anEpochRestoredFromTheStoreCarriesItsDropAndANewLeaderBuildingOnItKeepsIt() {
    AutomaticDrops automatic = new AutomaticDrops(true, Map.of("web", new AutomaticDrops.Entry(500_000, CAUSE)));
    Snapshot shed = build(Intent.NONE, null, automatic);
    // As a follower serves it and a new leader takes over from it: only the stored bytes, no built message.
    Snapshot restored = Snapshot.fromEnvelope(shed.toEnvelope());

    Snapshot newLeader = build(Intent.NONE, restored, AutomaticDrops.INHERITED);

    assertThat(restored.resources(XdsType.ENDPOINT).get("web")).isInstanceOf(io.signalbox.controlplane.snapshot.XdsResource.Stored.class);
    assertThat(AutomaticDrops.perMillion(restored, "web")).isEqualTo(500_000);
    assertThat(AutomaticDrops.inherited(restored)).isEqualTo(automatic);
    assertThat(drops(newLeader)).containsExactly("signalbox_overload 500000");
    assertThat(newLeader.provenance().getAutomaticDropsMap()).containsExactly(Map.entry("web", CAUSE));
  }
}
