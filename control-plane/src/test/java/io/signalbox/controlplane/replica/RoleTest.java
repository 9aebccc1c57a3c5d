package io.signalbox.controlplane.replica;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.reconcile.WriterRole;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.FakeClock;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.Fence;
import io.signalbox.store.Leadership;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The writer's role as a state machine driven by events — elected (lead), deposed (follow), the
 * leader's commits (follow), the writer's turn (settle), an append (fenced), the store down and
 * back — against the memory store's real lease and fencing. Scenario by scenario, then every
 * sequence of four events, each checked against the role's safety rules.
 */
class RoleTest {

  private static final Duration LEASE = Duration.ofSeconds(5);
  private static final StoreUnavailableException DOWN = new StoreUnavailableException("connection refused", null);

  private final FakeClock clock = new FakeClock(Instant.parse("2026-12-01T10:00:00Z"));
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final RecordingWriter writer = new RecordingWriter();
  private final AtomicInteger leaseLost = new AtomicInteger();
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private Snapshot last;
  private int port = 1000;

  private Role replicated() {
    Role role = Role.replicated(store, leaseLost::incrementAndGet);
    role.bind(writer);
    return role;
  }

  /** The next epoch this process builds: one endpoint more than the last. */
  private EpochSealer<Snapshot> build() {
    List<EndpointSpec> web = new ArrayList<>(last == null ? List.of() : last.endpoints().getOrDefault("web",
        List.of()));
    web.add(new EndpointSpec("10.0.0.1", port++, "a", 1, 0, EndpointState.READY, "file:/e.yaml"));
    return builder.candidate(List.of(), Map.of("web", web), last, Provenance.newBuilder().setCause("test").build())
        .sealer(clock);
  }

  private Optional<Snapshot> append(Role role) {
    Optional<Snapshot> appended = role.append("test", build());
    appended.ifPresent(s -> {
      last = s;
      writer.published(s);
    });
    return appended;
  }

  /** A snapshot another leader committed, {@code epoch}. */
  private Snapshot committed(long epoch) {
    return builder.candidate(List.of(), Map.of("web", List.of(new EndpointSpec("10.0.0.2", 80, "a", 1, 0,
        EndpointState.READY, "file:/e.yaml"))), null, Provenance.getDefaultInstance()).seal(epoch, clock.instant());
  }

  /** {@code replicaId} takes the lease as its election would; the lease, whoever holds it. */
  private Leadership.Lease acquire(String replicaId) {
    return store.leadership().acquire(replicaId, LEASE);
  }

  private Fence elect(Role role, String replicaId) {
    Leadership.Lease lease = acquire(replicaId);
    assertThat(lease.leaderId()).isEqualTo(replicaId);
    Fence fence = new Fence(replicaId, lease.term());
    role.lead(fence);
    return fence;
  }

  @Test
  void standaloneAlwaysLeadsAndAppendsUnfenced() {
    Role role = Role.standalone(store);
    role.bind(writer);

    assertThat(role.leading()).isTrue();
    assertThat(role.settle()).isTrue();
    assertThat(append(role)).isPresent();
    assertThat(store.lastEpoch()).isEqualTo(1);
  }

  @Test
  void aReplicaBuildsNothingBeforeItIsElected() {
    Role role = replicated();

    assertThat(role.leading()).isFalse();
    assertThat(role.settle()).isFalse();
    assertThat(append(role)).isEmpty();
    assertThat(store.lastEpoch()).isZero();
  }

  @Test
  void electedItReadsTheIntentOnTheWritersTurnThenLeadsAndAppendsFenced() {
    Role role = replicated();

    elect(role, "r1");
    assertThat(writer.drain()).containsExactly("signalNow elected leader with term 1");
    assertThat(role.leading()).as("not before the writer's turn").isFalse();

    assertThat(role.settle()).isTrue();
    assertThat(writer.drain()).containsExactly("loadIntent true");
    assertThat(append(role)).isPresent();
    assertThat(store.epoch(1).orElseThrow().term()).isEqualTo(1);
  }

  @Test
  void takingOverServesTheNewestCommittedEpochBeforeBuildingOnIt() {
    Role first = replicated();
    elect(first, "r1");
    first.settle();
    append(first);
    append(first);
    clock.advance(LEASE.plusSeconds(1));
    RecordingWriter second = new RecordingWriter();
    Role next = Role.replicated(store, () -> { });
    next.bind(second);

    Fence fence = new Fence("r2", acquire("r2").term());
    next.lead(fence);
    next.settle();

    assertThat(second.calls).containsExactly("signalNow elected leader with term 2", "loadIntent true", "tookOver 2");
    assertThat(second.epoch()).isEqualTo(2);
    assertThat(next.leading()).isTrue();
  }

  @Test
  void withoutTheIntentTheTakeOverWaitsAndIsRetriedFailingClosed() {
    Role role = replicated();
    elect(role, "r1");
    writer.drain();
    writer.intentReadable = false;

    assertThat(role.settle()).isFalse();
    assertThat(writer.drain()).containsExactly("loadIntent false", "retry taking over: operator intent");
    assertThat(append(role)).isEmpty();

    writer.intentReadable = true;
    assertThat(role.settle()).isTrue();
  }

  @Test
  void aFollowerServesWhatTheLeaderCommittedOnTheWritersTurnNewestWins() {
    Role role = replicated();

    role.follow(new WriterRole.Committed(committed(3), Map.of()));
    role.follow(new WriterRole.Committed(committed(4), Map.of()));
    assertThat(writer.drain()).containsExactly("signalNow epoch 3 committed by the leader",
        "signalNow epoch 4 committed by the leader");

    assertThat(role.settle()).isFalse();
    assertThat(writer.drain()).containsExactly("served 4");
    role.settle();
    assertThat(writer.drain()).as("served once").isEmpty();
  }

  @Test
  void aLeaderDoesNotServeAnotherLeadersCommitsWhileItLeads() {
    Role role = replicated();
    elect(role, "r1");
    role.settle();
    writer.drain();

    role.follow(new WriterRole.Committed(committed(9), Map.of()));
    role.settle();

    assertThat(writer.drain()).containsExactly("signalNow epoch 9 committed by the leader");
  }

  @Test
  void deposedItStopsAppendingAtOnceWhateverIsInFlight() {
    Role role = replicated();
    elect(role, "r1");
    role.settle();

    role.follow("the lease with term 1 was not renewed");

    assertThat(role.leading()).isFalse();
    assertThat(append(role)).isEmpty();
    assertThat(store.lastEpoch()).isZero();
  }

  @Test
  void aDepositionBeforeTheWritersTurnCancelsTheTakeOver() {
    Role role = replicated();
    elect(role, "r1");

    role.follow("the lease with term 1 was not renewed");

    assertThat(role.settle()).isFalse();
    assertThat(role.leading()).isFalse();
  }

  @Test
  void aLeaderPausedPastItsLeaseIsFencedOutByItsAppendAndFollows() {
    Role role = replicated();
    elect(role, "r1");
    role.settle();
    clock.advance(LEASE.plusSeconds(1));
    acquire("r2");

    assertThat(append(role)).isEmpty();

    assertThat(store.lastEpoch()).isZero();
    assertThat(role.leading()).isFalse();
    assertThat(leaseLost).hasValue(1);
    assertThat(role.storeAvailable()).as("the store answered: the lease is gone, not the store").isTrue();
  }

  @Test
  void theStoreDownStopsPublishingAndRetriesThenComesBack() {
    Role role = replicated();
    elect(role, "r1");
    role.settle();
    writer.drain();

    role.storeDown(DOWN);
    assertThat(role.storeAvailable()).isFalse();
    assertThat(writer.pending).isTrue();
    assertThat(writer.drain()).containsExactly("retry store retry");

    role.storeUp();
    assertThat(role.storeAvailable()).isTrue();
    assertThat(writer.pending).isFalse();
  }

  @Test
  void theReplicationThreadReportsTheStoreForAFollowerOnly() {
    Role role = replicated();

    role.storeUnreachable(DOWN);
    assertThat(role.storeAvailable()).isFalse();
    role.storeReachable();
    assertThat(role.storeAvailable()).isTrue();

    elect(role, "r1");
    role.settle();
    role.storeUnreachable(DOWN);
    assertThat(role.storeAvailable()).as("a leader's writer reports the store itself").isTrue();
  }

  /** One event of the role's life, as the election, the replication thread and the writer deliver it. */
  enum Event { ELECTED, DEPOSED, OTHER_LEADS, COMMITTED, SETTLE, APPEND, STORE_DOWN, STORE_UP, UNREACHABLE,
    REACHABLE, INTENT_LOST, INTENT_BACK }

  @Test
  void everySequenceOfFourEventsKeepsTheRolesRules() {
    Event[] events = Event.values();
    int n = events.length;
    int sequences = n * n * n * n;
    for (int i = 0; i < sequences; i++) {
      List<Event> sequence = new ArrayList<>();
      for (int k = 0, rest = i; k < 4; k++, rest /= n) {
        sequence.add(events[rest % n]);
      }
      new RoleTest().check(sequence);
    }
  }

  /**
   * Runs {@code sequence} on a fresh role and after each event checks: a replica appends only with
   * the lease it holds at that moment; it leads only after an election it settled with the intent
   * read, and not after being deposed; settle answers whether it leads; a leader never serves
   * another's commits; the store's health and the pending flag agree.
   */
  private void check(List<Event> sequence) {
    Role role = replicated();
    boolean electedSinceDeposed = false;
    long commits = 100;
    for (int step = 0; step < sequence.size(); step++) {
      Event event = sequence.get(step);
      String at = sequence.subList(0, step + 1).toString();
      boolean wasLeading = role.leading();
      writer.drain();
      switch (event) {
        case ELECTED -> {
          Leadership.Lease lease = acquire("r1");
          if (lease.leaderId().equals("r1")) {
            role.lead(new Fence("r1", lease.term()));
            electedSinceDeposed = true;
          }
        }
        case DEPOSED -> {
          role.follow("deposed");
          electedSinceDeposed = false;
        }
        case OTHER_LEADS -> {
          clock.advance(LEASE.plusSeconds(1));
          acquire("r2");
        }
        case COMMITTED -> role.follow(new WriterRole.Committed(committed(commits++), Map.of()));
        case SETTLE -> assertThat(role.settle()).as(at).isEqualTo(role.leading());
        case APPEND -> {
          Optional<Leadership.Lease> lease = store.leadership().current();
          long before = store.lastEpoch();
          Optional<Snapshot> appended = append(role);
          if (appended.isPresent()) {
            assertThat(wasLeading).as(at + ": appended while following").isTrue();
            assertThat(lease).as(at).hasValueSatisfying(l -> {
              assertThat(l.leaderId()).isEqualTo("r1");
              assertThat(l.expiresAt()).isAfter(clock.instant());
              assertThat(store.epoch(appended.get().epoch()).orElseThrow().term()).isEqualTo(l.term());
            });
          } else {
            assertThat(store.lastEpoch()).as(at + ": nothing stored").isEqualTo(before);
          }
          if (wasLeading && !role.leading()) {
            electedSinceDeposed = false; // fenced out: deposed by its own append
          }
        }
        case STORE_DOWN -> role.storeDown(DOWN);
        case STORE_UP -> role.storeUp();
        case UNREACHABLE -> role.storeUnreachable(DOWN);
        case REACHABLE -> role.storeReachable();
        case INTENT_LOST -> writer.intentReadable = false;
        case INTENT_BACK -> writer.intentReadable = true;
      }
      if (role.leading()) {
        assertThat(electedSinceDeposed).as(at + ": leads without an election since it was deposed").isTrue();
        assertThat(writer.calls).as(at + ": a leader serves no other leader's commits")
            .noneMatch(c -> c.startsWith("served "));
      }
      if (role.leading() && !wasLeading) {
        assertThat(event).as(at + ": starts leading only on the writer's turn").isEqualTo(Event.SETTLE);
        assertThat(writer.calls).as(at).contains("loadIntent true");
      }
      if (writer.pending != null) {
        assertThat(writer.pending).as(at + ": pending while the store is down").isEqualTo(!role.storeAvailable());
      }
    }
  }
}
