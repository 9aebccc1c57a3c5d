package io.signalbox.controlplane.replica;

import java.time.Instant;
import java.util.List;

/**
 * This replica's part, for the status API and readiness.
 *
 * @param role {@code leader}, {@code follower} or {@code standalone}
 * @param leaderId the replica holding the lease (this one, standalone), or null if none is known
 * @param term the lease term the leader holds; 0 standalone
 * @param caughtUp whether this replica serves the newest committed epoch
 * @param replicas every replica's last heartbeat
 */
public record ReplicaStatus(String replicaId, String role, String leaderId, long term, boolean caughtUp,
    List<Replica> replicas) {

  /** One replica as {@code GET /api/v1/replicas} lists it. */
  public record Replica(String replicaId, String role, long epoch, int clients, Instant lastSeen) {}

  public ReplicaStatus {
    replicas = List.copyOf(replicas);
  }
}
