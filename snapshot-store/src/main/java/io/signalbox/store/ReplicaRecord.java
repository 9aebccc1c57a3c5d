package io.signalbox.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One replica's heartbeat.
 *
 * @param role {@code leader}, {@code follower} or {@code standalone}
 * @param epoch the epoch it serves
 * @param clients its connected client streams
 * @param lastSeen the database's time of the heartbeat; ignored when written
 * @param leaderView what only the leader computes and every replica shows, as the control plane
 *     serialized it; empty for followers
 */
public record ReplicaRecord(String replicaId, String role, long epoch, int clients, Instant startedAt,
    Instant lastSeen, String leaderView) {

  public ReplicaRecord {
    Objects.requireNonNull(replicaId, "replicaId");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(startedAt, "startedAt");
    leaderView = leaderView == null ? "" : leaderView;
  }
}
