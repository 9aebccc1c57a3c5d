package io.signalbox.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which replica leads, and every replica's heartbeat. The lease is one row with a term that only
 * grows: the fencing token {@link SnapshotStore#append(EpochSealer, Fence)} checks in the same
 * transaction that appends an epoch, so a leader paused past its lease (SIGSTOP, a long GC)
 * appends nothing after it resumes. All lease times are the database's, never a replica's clock.
 * Unlike session advisory locks or {@code LISTEN}, a lease row works behind a transaction pooler.
 */
public interface Leadership {

  /**
   * The lease as stored.
   *
   * @param expiresAt when another replica may take it, by the database's clock
   */
  record Lease(String leaderId, long term, Instant expiresAt) {}

  /**
   * Takes the lease if nobody holds it or it has expired (a new term), or renews it if
   * {@code replicaId} holds it (the same term).
   *
   * @return the lease as it stands afterwards, whoever holds it
   */
  Lease acquire(String replicaId, Duration leaseDuration);

  /**
   * Extends the lease only if {@code replicaId} still holds {@code term} and it has not expired.
   *
   * @return false if the lease is lost: the caller stops leading at once
   */
  boolean renew(String replicaId, long term, Duration leaseDuration);

  /** Gives the lease up (a clean shutdown), so another replica need not wait for it to expire. */
  void release(String replicaId, long term);

  /** The lease, if anyone ever held it. */
  Optional<Lease> current();

  /** Records (or refreshes) a replica's heartbeat, stamped with the database's time. */
  void heartbeat(ReplicaRecord replica);

  /** Every replica that sent a heartbeat, most recently seen first. */
  List<ReplicaRecord> replicas();

  /** Forgets replicas not seen for {@code olderThan}; returns how many. */
  int forgetReplicas(Duration olderThan);
}
