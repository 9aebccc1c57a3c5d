package io.signalbox.store;

import java.time.Instant;

/** An epoch's metadata, without its resources. */
public record EpochRecord(
    long epoch,
    long parentEpoch,
    Instant createdAt,
    String contentHash,
    EpochStatus status,
    String reason,
    String cause) {

  /** This record with another status and reason (null: none). */
  EpochRecord withStatus(EpochStatus newStatus, String newReason) {
    return new EpochRecord(epoch, parentEpoch, createdAt, contentHash, newStatus, newReason == null ? "" : newReason,
        cause);
  }
}
