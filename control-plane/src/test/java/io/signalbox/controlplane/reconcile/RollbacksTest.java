package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rollbacks become quarantine entries, stored before they apply: the operator's to a named or the
 * last safe epoch, the automatic one after a NACK. What is refused changes nothing; what applies
 * asks the writer to rebuild with a cause that names it, and the writer's copy equals the store.
 */
class RollbacksTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final StoredEpochs epochs = new StoredEpochs(store, clock);
  private final List<String> rebuilds = new CopyOnWriteArrayList<>();
  private final IntentThread thread = new IntentThread(clock, rebuilds::add);
  private final Map<Long, Snapshot> published = new HashMap<>();
  private final AtomicLong lastSafe = new AtomicLong();
  private final Counter counter = new SimpleMeterRegistry().counter("signalbox_rollbacks");
  private final Rollbacks rollbacks = new Rollbacks(thread, store, epochs::last, published::get, lastSafe::get,
      counter);
  private Snapshot roundRobin;
  private Snapshot leastRequest;

  @BeforeEach
  void threeEpochs() {
    thread.replace(Intent.from(store.intent().read()));
    roundRobin = publish(LbPolicy.ROUND_ROBIN, 80);
    leastRequest = publish(LbPolicy.LEAST_REQUEST, 80);
    publish(LbPolicy.LEAST_REQUEST, 81);
  }

  @AfterEach
  void close() {
    thread.close();
  }

  private Snapshot publish(LbPolicy web, int apiPort) {
    Snapshot s = epochs.cluster("web", web, StoredEpochs.endpoint(80, EndpointState.READY))
        .cluster("api", LbPolicy.ROUND_ROBIN, StoredEpochs.endpoint(apiPort, EndpointState.READY)).append();
    published.put(s.epoch(), s);
    return s;
  }

  private void assertCopyEqualsStore() {
    assertThat(thread.intent()).isEqualTo(Intent.from(store.intent().read()));
  }

  @Test
  void aRollbackQuarantinesEveryResourceThatDiffersFromTheTargetEpochAndSaysWhy() {
    Outcome<Map.Entry<Long, Integer>> outcome = rollbacks.rollbackTo(1L, "alice", "lb change broke web");

    assertThat(outcome).isEqualTo(Outcome.applied(Map.entry(1L, 1)));
    String webVersion = leastRequest.resources(XdsType.CLUSTER).get("web").version();
    assertThat(thread.intent().quarantine()).containsExactly(Map.entry(new Quarantine.Key(XdsType.CLUSTER, "web"),
        new Quarantine.Entry(webVersion, 1, "rollback to epoch 1 by alice: lb change broke web", "alice", T0)));
    assertCopyEqualsStore();
    assertThat(rebuilds).containsExactly("rollback to epoch 1 by alice: lb change broke web");
    assertThat(counter.count()).isEqualTo(1);
  }

  @Test
  void aRollbackWithNoEpochNamedGoesToTheLastSafe() {
    lastSafe.set(roundRobin.epoch());

    assertThat(rollbacks.rollbackTo(null, "bob", "")).isEqualTo(Outcome.applied(Map.entry(1L, 1)));

    assertThat(rebuilds).containsExactly("rollback to epoch 1 (the last safe) by bob");
  }

  @Test
  void noSafeEpochIsRefused() {
    assertThat(rollbacks.rollbackTo(null, "bob", "")).isEqualTo(new Outcome.Refused<>("no_safe_epoch",
        "no epoch is SAFE yet; name one with {\"to\": N}"));

    assertThat(thread.intent().quarantine()).isEmpty();
    assertThat(rebuilds).isEmpty();
    assertThat(counter.count()).isZero();
  }

  @Test
  void anUnknownEpochIsRefused() {
    assertThat(rollbacks.rollbackTo(99L, "bob", "")).isEqualTo(new Outcome.Refused<>("unknown_epoch", "no epoch 99"));

    assertThat(store.intent().read().quarantine()).isEmpty();
  }

  @Test
  void aRollbackToAnEpochWithTheSameResourcesHoldsNothing() {
    assertThat(rollbacks.rollbackTo(2L, "alice", "")).isEqualTo(Outcome.applied(Map.entry(2L, 0)));

    assertThat(thread.intent().quarantine()).isEmpty();
  }

  @Test
  void rejectedEpochsRestoreFromTheLastSafeAndAreMarkedAndAudited() {
    lastSafe.set(roundRobin.epoch());
    String rejected = leastRequest.resources(XdsType.CLUSTER).get("web").version();

    Outcome<Long> outcome = rollbacks.rejectRefused(Map.of(XdsType.CLUSTER, Map.of("web", rejected)), 2, 3,
        "NACK from node-1: bad lb");

    assertThat(outcome).isEqualTo(Outcome.applied(1L));
    assertThat(thread.intent().quarantine()).containsExactly(Map.entry(new Quarantine.Key(XdsType.CLUSTER, "web"),
        new Quarantine.Entry(rejected, 1, "epochs 2..3 rejected: NACK from node-1: bad lb", "signalbox", T0)));
    assertCopyEqualsStore();
    assertThat(List.of(2L, 3L)).allSatisfy(e -> assertThat(store.epoch(e).orElseThrow().status())
        .isEqualTo(EpochStatus.REJECTED));
    assertThat(store.auditLog(5)).extracting(AuditEntry::action, AuditEntry::target, AuditEntry::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("rollback", "epochs 2..3",
            "NACKed; restoring 1 resource from epoch 1: NACK from node-1: bad lb"));
    assertThat(rebuilds).containsExactly("automatic rollback of epochs 2..3 to epoch 1 (NACKed)");
  }

  @Test
  void withNoSafeEpochARejectionRestoresTheParentOfTheFirstRejectedNeverNothing() {
    String rejected = leastRequest.resources(XdsType.CLUSTER).get("web").version();

    assertThat(rollbacks.rejectRefused(Map.of(XdsType.CLUSTER, Map.of("web", rejected)), 2, 2, "NACK"))
        .isEqualTo(Outcome.applied(1L));

    assertThat(store.epoch(1).orElseThrow().status()).isNotEqualTo(EpochStatus.REJECTED);
    assertThat(store.epoch(2).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
  }

  @Test
  void aLiftedEntryLeavesTheStoreAndTheCopyInTheBackground() {
    rollbacks.rollbackTo(1L, "alice", "");
    String version = leastRequest.resources(XdsType.CLUSTER).get("web").version();

    rollbacks.lift(Map.of(new Quarantine.Key(XdsType.CLUSTER, "web"), version));

    await().atMost(Duration.ofSeconds(10)).until(() -> thread.intent().quarantine().isEmpty());
    assertCopyEqualsStore();
  }

  @Test
  void liftingAnEntryForAnotherVersionKeepsIt() {
    rollbacks.rollbackTo(1L, "alice", "");

    rollbacks.lift(Map.of(new Quarantine.Key(XdsType.CLUSTER, "web"), "some-other-version"));
    // The thread runs in order: once this change ran, the lift has too.
    thread.run(() -> Outcome.applied(0));

    assertThat(thread.intent().quarantine()).hasSize(1);
    assertCopyEqualsStore();
  }
}
