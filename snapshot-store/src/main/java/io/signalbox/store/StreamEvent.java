package io.signalbox.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One thing a client stream did, as the append-only history keeps it: a response sent, its ACK or
 * NACK, or the stream closing. Plain values only: the store knows nothing of xDS classes.
 *
 * @param type the xDS type's short name ({@code CLUSTER}); empty for {@link Kind#CLOSED}
 * @param epoch the snapshot epoch the response was built from (0 for {@link Kind#CLOSED})
 * @param version the response's {@code version_info}: for a NACK, the version rejected
 * @param message a NACK's {@code error_detail} message, empty otherwise
 * @param resources a NACK's refused resource names, sorted; empty otherwise
 */
public record StreamEvent(
    Instant at,
    String replicaId,
    String nodeId,
    long streamId,
    String type,
    Kind kind,
    long epoch,
    String version,
    String message,
    List<String> resources) {

  public enum Kind { SENT, ACK, NACK, CLOSED }

  public StreamEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(replicaId, "replicaId");
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kind, "kind");
    version = version == null ? "" : version;
    message = message == null ? "" : message;
    // Built for every response sent and answered: the usual empty list costs no stream.
    resources = resources == null || resources.isEmpty() ? List.of() : resources.stream().sorted().toList();
    for (String name : resources) {
      // Stored one per line.
      if (name.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("resource name contains a line break: '" + name + "'");
      }
    }
  }

  /** A response of {@code type} sent, ACKed or NACKed ({@code message} only for a NACK). */
  public static StreamEvent of(Instant at, String replicaId, String nodeId, long streamId, String type, Kind kind,
      long epoch, String version) {
    return new StreamEvent(at, replicaId, nodeId, streamId, type, kind, epoch, version, "", List.of());
  }

  /** The stream closed: the client no longer holds anything through it. */
  public static StreamEvent closed(Instant at, String replicaId, String nodeId, long streamId) {
    return new StreamEvent(at, replicaId, nodeId, streamId, "", Kind.CLOSED, 0, "", "", List.of());
  }

  /** Identifies the stream across replicas (stream ids are unique only within one process). */
  public String streamKey() {
    return replicaId + "#" + streamId;
  }
}
