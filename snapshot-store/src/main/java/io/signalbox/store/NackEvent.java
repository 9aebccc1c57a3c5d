package io.signalbox.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One NACK, recorded once.
 *
 * @param client the stream and type that NACKed
 * @param epoch the epoch named by the rejected version_info
 * @param snapshotEpoch the snapshot the rejected response was built from: the epoch this NACK
 *     makes REJECTED
 * @param message the client's {@code error_detail.message}
 * @param resources names of the resources the client may have rejected (those in the response it
 *     did not already hold), sorted
 */
public record NackEvent(
    ClientRecord.Key client,
    String nodeCluster,
    Instant at,
    long epoch,
    long snapshotEpoch,
    String message,
    List<String> resources) {

  public NackEvent {
    Objects.requireNonNull(client, "client");
    nodeCluster = nodeCluster == null ? "" : nodeCluster;
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(message, "message");
    resources = resources.stream().sorted().toList();
    for (String name : resources) {
      // Stored one per line.
      if (name.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("resource name contains a line break: '" + name + "'");
      }
    }
  }
}
