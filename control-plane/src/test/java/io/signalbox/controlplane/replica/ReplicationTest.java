package io.signalbox.controlplane.replica;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.signalbox.controlplane.config.HaSettings;
import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.ReplicaRecord;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the replication thread decides from what it reads: how a follower catches up (the epochs
 * after the one it serves applied as stored deltas, or nothing when they do not chain on it),
 * which other replicas are alive, and what the leader's heartbeat carries. The threads and the
 * three replicas on one PostgreSQL are {@code ReplicasTest}'s.
 */
class ReplicationTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final HaSettings HA = new HaSettings("r1", Duration.ofSeconds(5), Duration.ofSeconds(1));

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final List<EndpointSpec> web = new ArrayList<>();
  private Snapshot last;

  /**
   * The leader appends the next epoch: one endpoint more in {@code web}, beside ten clusters that
   * stay the same (so the store writes the small change as a delta, as it does in production).
   */
  private Snapshot append() {
    web.add(new EndpointSpec("10.0.0.1", 8000 + web.size(), "a", 1, 0, EndpointState.READY, "file:/e.yaml"));
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (int c = 0; c < 10; c++) {
      List<EndpointSpec> steady = new ArrayList<>();
      for (int port = 1; port <= 3; port++) {
        steady.add(new EndpointSpec("10.0.1." + c, port, "a", 1, 0, EndpointState.READY, "file:/e.yaml"));
      }
      endpoints.put("steady-" + c, steady);
    }
    endpoints.put("web", List.copyOf(web));
    last = store.append(builder.candidate(List.of(), endpoints, last, Provenance.newBuilder().setCause("test").build())
        .sealer(clock));
    return last;
  }

  private static ReplicaRecord heartbeat(String id, String role, Instant lastSeen, String leaderView) {
    return new ReplicaRecord(id, role, 7, 0, T0, lastSeen, leaderView);
  }

  @Test
  void aFollowerAppliesTheStoredDeltasAfterTheEpochItServes() {
    Snapshot served = append();
    append();
    Snapshot newest = append();

    List<SnapshotEnvelope> after = store.storedAfter(served.epoch(), Replication.FOLLOW_BATCH);
    Snapshot caughtUp = Replication.applied(served, after);

    assertThat(after).hasSize(2).allMatch(SnapshotEnvelope::getDelta);
    assertThat(caughtUp.epoch()).isEqualTo(newest.epoch());
    assertThat(caughtUp.contentHash()).isEqualTo(newest.contentHash());
    assertThat(caughtUp.endpoints()).isEqualTo(newest.endpoints());
  }

  @Test
  void deltasThatDoNotChainOnTheEpochServedAreNotApplied() {
    Snapshot first = append();
    Snapshot second = append();
    append();

    assertThat(Replication.applied(second, store.storedAfter(first.epoch(), Replication.FOLLOW_BATCH))).isNull();
  }

  @Test
  void aFullEnvelopeIsNotAppliedAsADelta() {
    Snapshot first = append();
    Snapshot second = append();

    assertThat(Replication.applied(first, List.of(second.toEnvelope()))).isNull();
  }

  @Test
  void nothingStoredAfterTheEpochServedLeavesItAsItIs() {
    Snapshot served = append();

    assertThat(Replication.applied(served, List.of())).isSameAs(served);
  }

  @Test
  void theOtherLiveReplicasAreThoseSeenWithinTheLeaseAndTwoRenewalsOfTheNewest() {
    List<ReplicaRecord> all = List.of(
        heartbeat("r2", "leader", T0, ""),
        heartbeat("r1", "follower", T0.minusSeconds(1), ""),
        heartbeat("r3", "follower", T0.minusSeconds(7), ""),
        heartbeat("r4", "follower", T0.minusSeconds(8), ""));

    assertThat(Replication.otherLive(all, HA)).containsExactlyInAnyOrder("r2", "r3");
    assertThat(Replication.otherLive(List.of(), HA)).isEmpty();
  }

  @Test
  void aFollowerShowsWhatTheLeadersHeartbeatCarries() throws Exception {
    Replication.LeaderView view = new Replication.LeaderView(
        List.of(new HeldUpdates.Held("web", "guard.mass-removal", "held", T0)), Map.of("web", "f1"),
        Map.of("e2e", 4L));
    String json = new ObjectMapper().registerModule(new JavaTimeModule()).writeValueAsString(view);
    List<ReplicaRecord> all = List.of(heartbeat("r1", "follower", T0, ""), heartbeat("r2", "leader", T0, json));

    assertThat(Replication.leaderView(all, "r1")).isEqualTo(view);
    assertThat(Replication.leaderView(all, "r2")).as("the leader reads its own view, not its heartbeat")
        .isEqualTo(Replication.LeaderView.NONE);
  }

  @Test
  void anUnreadableLeaderViewShowsNothingRatherThanFailing() {
    List<ReplicaRecord> all = List.of(heartbeat("r2", "leader", T0, "{not json"));

    assertThat(Replication.leaderView(all, "r1")).isEqualTo(Replication.LeaderView.NONE);
  }
}
