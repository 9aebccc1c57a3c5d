package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the writer does with each published epoch's endpoints (drain bookkeeping, the transition
 * audit) sees every change, though it only looks at clusters whose lists changed.
 */
class EndpointChangesAfterPublishTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final EndpointSpec A = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointSpec B = new EndpointSpec("10.0.0.2", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointSpec C = new EndpointSpec("10.0.1.1", 80, "a", 1, 0, EndpointState.READY, "file:x");
  private static final EndpointRef REF_B = new EndpointRef("web", "10.0.0.2", 80);

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private Snapshot last;

  private Snapshot publish(Map<String, List<EndpointSpec>> endpoints) {
    last = builder.candidate(List.of(), endpoints, last, Provenance.getDefaultInstance())
        .seal(last == null ? 1 : last.epoch() + 1, T0);
    return last;
  }

  private static Map<String, List<EndpointSpec>> clusters(String name, List<EndpointSpec> list, String name2,
      List<EndpointSpec> list2) {
    Map<String, List<EndpointSpec>> out = new TreeMap<>();
    out.put(name, list);
    if (name2 != null) {
      out.put(name2, list2);
    }
    return out;
  }

  @Test
  void aDrainRunStartsAtItsFirstEpochAndEndsWhenTheEndpointStopsDrainingOrGoes() {
    // note() never asks the xDS server; only acknowledged() does.
    DrainTracker drains = new DrainTracker(null);
    List<EndpointSpec> web = List.of(A, B.withState(EndpointState.DRAINING));

    drains.note(publish(clusters("api", List.of(C), "web", web)));
    drains.note(publish(clusters("api", List.of(C, A), "web", web)));
    drains.note(publish(clusters("api", List.of(C), "web", new ArrayList<>(web))));
    assertThat(drains.drainingSince(REF_B)).as("unchanged or equal lists keep the run").isEqualTo(1L);

    drains.note(publish(clusters("api", List.of(C), "web", List.of(A, B))));
    assertThat(drains.drainingSince(REF_B)).isNull();

    drains.note(publish(clusters("api", List.of(C), "web", web)));
    assertThat(drains.drainingSince(REF_B)).isEqualTo(5L);

    drains.note(publish(clusters("api", List.of(C), null, null)));
    assertThat(drains.drainingSince(REF_B)).as("its cluster is gone").isNull();
  }

  @Test
  void theAuditHasEveryTransitionOfAChangedClusterAndNothingForUnchangedOnes() {
    InMemorySnapshotStore store = new InMemorySnapshotStore(Clock.systemUTC());
    List<EndpointSpec> api = List.of(C);
    Snapshot parent = publish(clusters("api", api, "web", List.of(A, B)));
    Snapshot child = publish(clusters("api", api, "web", List.of(B.withState(EndpointState.DRAINING))));

    TransitionAudit.record(store, parent, child, Map.of(REF_B, "drained by alice"), T0);
    Snapshot same = publish(clusters("api", new ArrayList<>(api), "web",
        new ArrayList<>(List.of(B.withState(EndpointState.DRAINING)))));
    TransitionAudit.record(store, child, same, Map.of(), T0);

    assertThat(store.auditLog(100)).extracting(AuditEntry::target, AuditEntry::reason).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("web/10.0.0.2:80", "READY -> DRAINING in epoch 2 (drained by alice)"),
        org.assertj.core.groups.Tuple.tuple("web/10.0.0.1:80", "READY -> removed in epoch 2"));
  }

  @Test
  void theEndpointsOfAClusterThatIsGoneAreAuditedAsRemoved() {
    InMemorySnapshotStore store = new InMemorySnapshotStore(Clock.systemUTC());
    Snapshot parent = publish(clusters("api", List.of(C), "web", List.of(A)));
    Snapshot child = publish(clusters("web", List.of(A), null, null));

    TransitionAudit.record(store, parent, child, Map.of(), T0);

    assertThat(store.auditLog(100)).extracting(AuditEntry::target, AuditEntry::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("api/10.0.1.1:80", "READY -> removed in epoch 2"));
  }
}
