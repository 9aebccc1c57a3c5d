package io.signalbox.controlplane.xds;

import java.time.Instant;
import java.util.Map;

/**
 * The most recent NACK of one type from one client.
 *
 * @param epoch the epoch whose version of the type was rejected (the rejected version_info)
 * @param snapshotEpoch the snapshot the rejected response was computed from
 * @param message the client's {@code error_detail.message}
 * @param resources name -> version of every resource in the rejected response that the client did
 *     not already hold: the candidates for what it rejected
 */
public record NackStatus(long epoch, long snapshotEpoch, String message, Instant at, Map<String, String> resources) {
  public NackStatus {
    resources = Map.copyOf(resources);
  }
}
