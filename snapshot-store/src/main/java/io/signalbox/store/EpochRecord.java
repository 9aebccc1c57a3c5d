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
    String cause) {}
