package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The epoch log. Persist first, then publish: {@link #append} returns only after the epoch is
 * durable, and the caller publishes only what it returned.
 *
 * <p>Every method may throw {@link StoreUnavailableException} when the backing database cannot be
 * reached; callers keep serving what they have.
 */
public interface SnapshotStore extends AutoCloseable {

  /**
   * Allocates the next epoch and persists the sealed snapshot in one transaction. The epoch is
   * strictly greater than every epoch ever stored, by any writer, and is never reused.
   *
   * @return what the sealer built for the allocated epoch
   */
  <S> S append(EpochSealer<S> sealer);

  /**
   * The newest stored epoch's envelope, if any: always full, never a delta, whatever form it was
   * stored in (see {@link EpochSealer#delta}).
   */
  Optional<SnapshotEnvelope> latest();

  /**
   * Whether the newest epoch this store appended should be rewritten as a full checkpoint
   * ({@link #checkpoint}): its chain of deltas is half-way to the bound at which the next append
   * would have to store the whole state itself.
   */
  default boolean checkpointDue() {
    return false;
  }

  /**
   * Rewrites the newest epoch this store appended, {@code full.getEpoch()}, as a full checkpoint,
   * so that later deltas build on it. Called after that epoch was published, off the path from
   * change to client. Does nothing if another epoch was appended meanwhile or the row is already a
   * checkpoint; a checkpoint that is never written only means a later append writes one.
   */
  default void checkpoint(SnapshotEnvelope full) {
  }

  /** The stored epoch's full envelope, as {@link #latest()}. */
  Optional<SnapshotEnvelope> load(long epoch);

  /** Epochs newest first, strictly below {@code beforeEpoch} (use {@link Long#MAX_VALUE} for the newest). */
  List<EpochRecord> epochs(int limit, long beforeEpoch);

  Optional<EpochRecord> epoch(long epoch);

  void setStatus(long epoch, EpochStatus status, String reason);

  /**
   * Sets {@code epoch}'s status only if it is still {@code expected}, atomically: a writer that
   * marks an epoch SUPERSEDED must not overwrite the SAFE or REJECTED another thread just gave it.
   *
   * @return whether the status was replaced; false if the epoch has another status or is not stored
   */
  boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason);

  /** Records input the validator rejected; it creates no epoch. */
  void recordRejection(RejectedCandidate candidate);

  /** Rejected candidates, newest first. */
  List<RejectedCandidate> rejections(int limit);

  void audit(AuditEntry entry);

  /** Audit entries, newest first: by time, then by the order they were written. */
  List<AuditEntry> auditLog(int limit);

  /**
   * Retention: deletes every epoch except the newest {@code keepLast}, those in {@code alsoKeep}
   * (the last safe epoch, the one being served), and the older ones that a kept epoch stored as a
   * delta needs to be loaded (back to its full checkpoint). Numbering is unaffected: a pruned epoch
   * number is never allocated again.
   *
   * @return how many epochs were deleted
   * @throws IllegalArgumentException if {@code keepLast} is below 1: the newest epoch is what a
   *     restart serves
   */
  default int prune(int keepLast, Set<Long> alsoKeep) {
    // A store that cannot delete keeps everything: retention is housekeeping, never correctness.
    if (keepLast < 1) {
      throw new IllegalArgumentException(
          "keepLast must be at least 1 (the newest epoch is what a restart serves), was " + keepLast);
    }
    return 0;
  }

  /**
   * Inserts or replaces each row by its {@link ClientRecord.Key}, all in one transaction. When the
   * list names a key twice, the later row wins.
   */
  void saveClientStatuses(List<ClientRecord> records);

  /** Every client row, connected or not, most recently seen first. */
  List<ClientRecord> clientStatuses();

  /**
   * Marks every row still connected as disconnected, keeping its {@code lastSeenAt}. Called when a
   * replica starts: the streams those rows describe died with the previous process.
   *
   * @return how many rows were changed
   */
  int disconnectClients();

  void recordNack(NackEvent event);

  /** NACK events, newest first. */
  List<NackEvent> nackEvents(int limit);

  /** The NACK events of responses built from {@code snapshotEpoch}, newest first. */
  List<NackEvent> nackEvents(long snapshotEpoch);

  /** Operator overrides, kept with the epoch log. */
  OverrideStore overrides();

  /** REST registry leases, kept with the epoch log. */
  LeaseStore leases();

  @Override
  void close();
}
