package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every store promises about the leader lease, fenced appends and wave releases; run against
 * each store by the subclasses. Lease times are the store's own (the database's clock for
 * PostgreSQL), so expiry is exercised with short leases and awaited, not with a fake clock.
 */
public abstract class LeadershipContract {

  protected static final Duration LONG = Duration.ofMinutes(5);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(Clock.systemUTC());
  }

  @AfterEach
  void close() {
    store.close();
  }

  protected Leadership leadership() {
    return store.leadership();
  }

  private static void pause(Duration d) {
    // A lease runs out by the database's clock: wait past it (bounded and short).
    long until = System.nanoTime() + d.toNanos();
    org.awaitility.Awaitility.await().pollInterval(Duration.ofMillis(20)).atMost(d.plusSeconds(5))
        .until(() -> System.nanoTime() >= until);
  }

  @Test
  void theFirstReplicaTakesTermOneAndOthersSeeItsLease() {
    assertThat(leadership().current()).isEmpty();

    Leadership.Lease a = leadership().acquire("a", LONG);
    Leadership.Lease seenByB = leadership().acquire("b", LONG);

    assertThat(a.leaderId()).isEqualTo("a");
    assertThat(a.term()).isEqualTo(1);
    assertThat(seenByB).isEqualTo(leadership().current().orElseThrow());
    assertThat(seenByB.leaderId()).isEqualTo("a");
    assertThat(seenByB.term()).isEqualTo(1);
  }

  @Test
  void theHolderRenewsInItsTermAndNobodyElseCan() {
    Leadership.Lease a = leadership().acquire("a", LONG);

    assertThat(leadership().renew("a", a.term(), LONG)).isTrue();
    assertThat(leadership().renew("b", a.term(), LONG)).isFalse();
    assertThat(leadership().renew("a", a.term() + 1, LONG)).isFalse();
    assertThat(leadership().acquire("a", LONG).term()).as("re-acquiring a live lease keeps the term").isEqualTo(1);
  }

  @Test
  void anExpiredLeaseGoesToTheNextReplicaWithAHigherTermAndTheOldHolderCannotRenewIt() {
    Leadership.Lease a = leadership().acquire("a", Duration.ofSeconds(1));
    pause(Duration.ofMillis(1500));

    Leadership.Lease b = leadership().acquire("b", LONG);

    assertThat(b.leaderId()).isEqualTo("b");
    assertThat(b.term()).isEqualTo(a.term() + 1);
    assertThat(leadership().renew("a", a.term(), LONG)).isFalse();
  }

  @Test
  void aReleasedLeaseIsFreeAtOnce() {
    Leadership.Lease a = leadership().acquire("a", LONG);
    leadership().release("a", a.term());

    assertThat(leadership().acquire("b", LONG).leaderId()).isEqualTo("b");
  }

  @Test
  void anAppendIsStoredOnlyWhileItsFenceHoldsTheLease() {
    Leadership.Lease a = leadership().acquire("a", LONG);

    Optional<?> first = store.append(EnvelopeSealer.because("leader a"), new Fence("a", a.term()));
    Optional<?> wrongTerm = store.append(EnvelopeSealer.because("stale term"), new Fence("a", a.term() + 1));
    // Its lease runs out (release ends it now: the same as pausing past it, without the wait).
    leadership().release("a", a.term());
    Optional<?> expired = store.append(EnvelopeSealer.because("paused past its lease"), new Fence("a", a.term()));
    Leadership.Lease b = leadership().acquire("b", LONG);
    Optional<?> oldLeader = store.append(EnvelopeSealer.because("old leader resumed"), new Fence("a", a.term()));
    Optional<?> newLeader = store.append(EnvelopeSealer.because("leader b"), new Fence("b", b.term()));

    assertThat(first).isPresent();
    assertThat(wrongTerm).isEmpty();
    assertThat(expired).isEmpty();
    assertThat(oldLeader).isEmpty();
    assertThat(newLeader).isPresent();
    assertThat(store.epochs(10, Long.MAX_VALUE)).extracting(EpochRecord::epoch, EpochRecord::cause, EpochRecord::term)
        .as("a refused append uses no epoch number; each epoch names the term that appended it")
        .containsExactly(org.assertj.core.groups.Tuple.tuple(2L, "leader b", b.term()),
            org.assertj.core.groups.Tuple.tuple(1L, "leader a", a.term()));
    assertThat(store.lastEpoch()).isEqualTo(2);
  }

  @Test
  void aWaveNeverMovesBack() {
    store.release(0, 5);
    store.release(1, 3);
    store.release(0, 4);
    store.release(1, 6);

    assertThat(store.releases()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(0, 5L, 1, 6L));
  }

  @Test
  void keepsOneHeartbeatPerReplica() {
    Instant started = Instant.parse("2026-12-01T10:00:00Z");
    leadership().heartbeat(new ReplicaRecord("a", "leader", 4, 10, started, null, "{\"held\":[]}"));
    leadership().heartbeat(new ReplicaRecord("b", "follower", 3, 7, started, null, ""));
    leadership().heartbeat(new ReplicaRecord("b", "follower", 4, 8, started, null, ""));

    assertThat(leadership().replicas()).extracting(ReplicaRecord::replicaId, ReplicaRecord::role,
            ReplicaRecord::epoch, ReplicaRecord::clients)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("a", "leader", 4L, 10),
            org.assertj.core.groups.Tuple.tuple("b", "follower", 4L, 8));
    assertThat(leadership().replicas()).allSatisfy(r -> assertThat(r.lastSeen()).isNotNull());
    assertThat(leadership().replicas().stream().filter(r -> r.replicaId().equals("a")).findFirst().orElseThrow()
        .leaderView()).isEqualTo("{\"held\":[]}");
    assertThat(leadership().forgetReplicas(Duration.ofHours(1))).isZero();
  }
}
