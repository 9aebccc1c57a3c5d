package io.signalbox.controlplane.xds;

import java.time.Instant;

/**
 * The most recent NACK of one type from one client.
 *
 * @param epoch the epoch whose version of the type was rejected (the rejected version_info)
 * @param snapshotEpoch the snapshot the rejected response was computed from
 * @param message the client's {@code error_detail.message}
 */
public record NackStatus(long epoch, long snapshotEpoch, String message, Instant at) {}
