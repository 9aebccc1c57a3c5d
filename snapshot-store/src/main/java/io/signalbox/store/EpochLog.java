package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The epoch log. Persist first, then publish: {@link #append} returns only after the epoch is
 * durable, and the caller publishes only what it returned.
 *
 * <p>Every method may throw {@link StoreUnavailableException} when the backing database cannot be
 * reached; callers keep serving what they have.
 */
public interface EpochLog {

  /**
   * Allocates the next epoch and persists the sealed snapshot in one transaction. The epoch is
   * strictly greater than every epoch ever stored, by any writer, and is never reused.
   *
   * @return what the sealer built for the allocated epoch
   */
  <S> S append(EpochSealer<S> sealer);

  /**
   * As {@link #append(EpochSealer)}, but only while {@code fence} holds the leader lease, checked
   * in the same transaction: a leader that lost its lease (it was paused past it, or another
   * replica took it) stores nothing.
   *
   * @return what the sealer built, or empty if the lease no longer holds (nothing was stored and
   *     no epoch number was used)
   */
  <S> Optional<S> append(EpochSealer<S> sealer, Fence fence);

  /** The newest committed epoch (0 before the first); pruning never lowers it. */
  long lastEpoch();

  /** Records that canary wave {@code wave} serves {@code epoch}; a wave never moves back. */
  void release(int wave, long epoch);

  /** Wave -> the epoch it serves, as the leader released them. */
  Map<Integer, Long> releases();

  /**
   * Calls {@code onChange}, on a thread of the store's, soon after anyone commits an epoch, a
   * wave release or an intent change. A hint, never the only signal: callers poll as well.
   *
   * @return stops listening
   */
  default AutoCloseable listen(Runnable onChange) {
    return () -> { };
  }

  /**
   * The newest stored epoch's envelope, if any: always full, never a delta, whatever form it was
   * stored in (see {@link EpochSealer#delta}).
   */
  Optional<SnapshotEnvelope> latest();

  /**
   * Whether a full copy of the newest epoch this store appended ({@link #checkpoint}) is due: the
   * deltas since that epoch's nearest full copy are half-way to the bound at which the next append
   * would have to store the whole state itself. False again once a checkpoint of that epoch, or of
   * an epoch before it in the same chain, is written, until the chain grows again.
   */
  default boolean checkpointDue() {
    return false;
  }

  /**
   * Writes a full copy of an epoch already stored, {@code full.getEpoch()}: written after that
   * epoch was published, from any thread; never blocks an append. The epoch may be older than the
   * newest (the writer kept appending meanwhile); later loads start from the copy and later
   * appends count their deltas from it. Does nothing when the epoch is not in the chain this store
   * is extending, already holds a full copy, or its content hash differs from {@code full}'s; a
   * copy that is never written only means a later append writes the whole state.
   *
   * @throws IllegalArgumentException if {@code full} is a delta
   */
  default void checkpoint(SnapshotEnvelope full) {
  }

  /** The stored epoch's full envelope, as {@link #latest()}. */
  Optional<SnapshotEnvelope> load(long epoch);

  /**
   * The epochs stored after {@code epoch}, oldest first and at most {@code limit} of them, each
   * envelope as stored: a delta on its parent, or full where a chain begins. A follower that
   * serves {@code epoch} applies these to it in one read, instead of rebuilding the newest epoch
   * from its chain's full copy; anything else it reads with {@link #latest()}.
   */
  List<SnapshotEnvelope> storedAfter(long epoch, int limit);

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

  /**
   * Retention: deletes every epoch except the newest {@code keepLast}, those in {@code alsoKeep}
   * (the last safe epoch, the one being served), and the older ones that a kept epoch stored as a
   * delta needs to be loaded (back to the nearest one holding a full copy). Numbering is unaffected: a pruned epoch
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
   * The newest epoch with {@code status}, if any: after a restart, the last SAFE epoch is where
   * rollbacks restore from until the fleet makes a newer one SAFE.
   */
  Optional<EpochRecord> newestWithStatus(EpochStatus status);
}
