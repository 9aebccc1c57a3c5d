package io.signalbox.store;

import java.time.Instant;

/**
 * An epoch's metadata, without its resources.
 *
 * @param term the lease term of the leader that appended it; 0 for a standalone writer
 */
public record EpochRecord(
    long epoch,
    long parentEpoch,
    Instant createdAt,
    String contentHash,
    EpochStatus status,
    String reason,
    String cause,
    long term) {

  /** An epoch a standalone writer appended. */
  public EpochRecord(long epoch, long parentEpoch, Instant createdAt, String contentHash, EpochStatus status,
      String reason, String cause) {
    this(epoch, parentEpoch, createdAt, contentHash, status, reason, cause, 0);
  }

  /** This record with another status and reason (null: none). */
  public EpochRecord withStatus(EpochStatus newStatus, String newReason) {
    return new EpochRecord(epoch, parentEpoch, createdAt, contentHash, newStatus, newReason == null ? "" : newReason,
        cause, term);
  }

  public EpochRecord withTerm(long newTerm) {
    return new EpochRecord(epoch, parentEpoch, createdAt, contentHash, status, reason, cause, newTerm);
  }
}
