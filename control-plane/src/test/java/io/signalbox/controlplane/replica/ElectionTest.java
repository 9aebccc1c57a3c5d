package io.signalbox.controlplane.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.config.HaSettings;
import io.signalbox.source.FakeClock;
import io.signalbox.store.Fence;
import io.signalbox.store.Leadership;
import io.signalbox.store.ReplicaRecord;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Leader election round by round, on the memory store's lease and a clock the test moves: who is
 * elected, who follows, when a leader is deposed (renewal refused, store unreachable, an append
 * fenced out, shutting down) and that it is told before anyone else can lead.
 */
class ElectionTest {

  private static final Duration LEASE = Duration.ofSeconds(5);

  private final FakeClock clock = new FakeClock(Instant.parse("2026-12-01T10:00:00Z"));
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final OutageLeadership leadership = new OutageLeadership(store.leadership());
  private final List<Election> elections = new java.util.ArrayList<>();

  /** What an election told its replica, in order. */
  private static final class RecordingListener implements Election.Listener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void elected(Fence lease) {
      events.add("elected " + lease.replicaId() + " term " + lease.term());
    }

    @Override
    public void deposed(String why) {
      events.add("deposed: " + why);
    }
  }

  /** The store's leadership, unreachable while {@link #down} is set. */
  private static final class OutageLeadership implements Leadership {
    private final Leadership store;
    volatile boolean down;

    OutageLeadership(Leadership store) {
      this.store = store;
    }

    private void check() {
      if (down) {
        throw new StoreUnavailableException("connection refused", null);
      }
    }

    @Override
    public Lease acquire(String replicaId, Duration leaseDuration) {
      check();
      return store.acquire(replicaId, leaseDuration);
    }

    @Override
    public boolean renew(String replicaId, long term, Duration leaseDuration) {
      check();
      return store.renew(replicaId, term, leaseDuration);
    }

    @Override
    public void release(String replicaId, long term) {
      check();
      store.release(replicaId, term);
    }

    @Override
    public Optional<Lease> current() {
      check();
      return store.current();
    }

    @Override
    public void heartbeat(ReplicaRecord replica) {
      check();
      store.heartbeat(replica);
    }

    @Override
    public List<ReplicaRecord> replicas() {
      check();
      return store.replicas();
    }

    @Override
    public int forgetReplicas(Duration olderThan) {
      check();
      return store.forgetReplicas(olderThan);
    }
  }

  private Election election(String replicaId, RecordingListener listener) {
    Election e = new Election(leadership, new HaSettings(replicaId, LEASE, Duration.ofSeconds(1)), listener);
    elections.add(e);
    return e;
  }

  @AfterEach
  void close() {
    elections.forEach(Election::close);
  }

  @Test
  void theFirstToAskLeadsAndTheOtherFollows() {
    RecordingListener r1 = new RecordingListener();
    RecordingListener r2 = new RecordingListener();
    Election one = election("r1", r1);
    Election two = election("r2", r2);

    one.tick();
    two.tick();

    assertThat(r1.events).containsExactly("elected r1 term 1");
    assertThat(one.term()).isEqualTo(1);
    assertThat(r2.events).isEmpty();
    assertThat(two.term()).isZero();
    assertThat(two.lease().leaderId()).isEqualTo("r1");
  }

  @Test
  void aLeaderThatRenewsInTimeIsNotElectedAgain() {
    RecordingListener r1 = new RecordingListener();
    Election one = election("r1", r1);
    one.tick();

    for (int i = 0; i < 10; i++) {
      clock.advance(Duration.ofSeconds(1));
      one.tick();
    }

    assertThat(r1.events).containsExactly("elected r1 term 1");
    assertThat(one.term()).isEqualTo(1);
  }

  @Test
  void aLeaderPausedPastItsLeaseIsDeposedAndTheOtherLeadsWithANewTerm() {
    RecordingListener r1 = new RecordingListener();
    RecordingListener r2 = new RecordingListener();
    Election one = election("r1", r1);
    Election two = election("r2", r2);
    one.tick();

    clock.advance(LEASE.plusSeconds(1));
    two.tick();
    one.tick();

    assertThat(r2.events).containsExactly("elected r2 term 2");
    assertThat(r1.events).containsExactly("elected r1 term 1", "deposed: the lease with term 1 was not renewed");
    assertThat(one.term()).isZero();
    assertThat(one.lease().leaderId()).isEqualTo("r2");
  }

  @Test
  void aLeaderThatCannotReachTheStoreStopsLeadingAtOnceAndLeadsAgainWhenItCan() {
    RecordingListener r1 = new RecordingListener();
    Election one = election("r1", r1);
    one.tick();

    leadership.down = true;
    one.tick();
    assertThat(r1.events).containsExactly("elected r1 term 1", "deposed: the lease with term 1 was not renewed");
    assertThat(one.term()).isZero();

    leadership.down = false;
    one.tick();
    assertThat(r1.events).last().isEqualTo("elected r1 term 1");
    assertThat(one.term()).isEqualTo(1);
  }

  @Test
  void aFollowerThatCannotReachTheStoreStaysAFollower() {
    RecordingListener r1 = new RecordingListener();
    Election one = election("r1", r1);

    leadership.down = true;
    one.tick();

    assertThat(r1.events).isEmpty();
    assertThat(one.lease()).isNull();
  }

  @Test
  void anAppendFencedOutDeposesTheLeaderOnItsThread() {
    RecordingListener r1 = new RecordingListener();
    Election one = election("r1", r1);
    one.tick();

    one.fencedOut();

    await().atMost(Duration.ofSeconds(10)).until(() -> one.term() == 0);
    assertThat(r1.events).containsExactly("elected r1 term 1", "deposed: an append found the lease with term 1 gone");
  }

  @Test
  void aFencedOutFollowerIsNotDeposedTwice() {
    RecordingListener r1 = new RecordingListener();
    Election one = election("r1", r1);

    one.fencedOut();
    one.close();

    assertThat(r1.events).isEmpty();
  }

  @Test
  void closingGivesTheLeaseUpSoAnotherLeadsWithoutWaitingForItToExpire() {
    RecordingListener r1 = new RecordingListener();
    RecordingListener r2 = new RecordingListener();
    Election one = election("r1", r1);
    Election two = election("r2", r2);
    one.tick();

    one.close();
    two.tick();

    assertThat(r1.events).containsExactly("elected r1 term 1", "deposed: shutting down");
    assertThat(r2.events).containsExactly("elected r2 term 2");
  }
}
