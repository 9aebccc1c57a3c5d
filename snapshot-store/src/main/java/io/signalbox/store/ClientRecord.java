package io.signalbox.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What one Signalbox replica knows about one client stream's position for one xDS type, as
 * persisted. Plain values only: the store knows nothing of xDS classes.
 *
 * @param lastNack the most recent NACK of this type, kept after later ACKs; null if it never NACKed
 * @param nackCount how many NACKs of this type the stream sent
 * @param lastSeenAt when the replica last saw the stream (open, or noticed it closed)
 * @param connected false once the stream closed, or its replica restarted
 */
public record ClientRecord(
    Key key,
    String nodeCluster,
    String zone,
    String userAgent,
    Position position,
    LastNack lastNack,
    long nackCount,
    Instant lastSeenAt,
    boolean connected) {

  /**
   * Identifies a row. Stream ids are only unique within one process, hence the replica.
   *
   * @param replicaId which Signalbox instance served the stream (e.g. {@code host/1234})
   */
  public record Key(String replicaId, String nodeId, long streamId, String typeUrl) {
    public Key {
      Objects.requireNonNull(replicaId, "replicaId");
      Objects.requireNonNull(nodeId, "nodeId");
      Objects.requireNonNull(typeUrl, "typeUrl");
    }

    // Written out: a key is looked up for every row of every status recorder tick, and the
    // generated equals and hashCode (method handles) made its loop costly for C2 to compile.
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && streamId == k.streamId && nodeId.equals(k.nodeId) && typeUrl.equals(k.typeUrl)
          && replicaId.equals(k.replicaId);
    }

    @Override
    public int hashCode() {
      return ((replicaId.hashCode() * 31 + nodeId.hashCode()) * 31 + Long.hashCode(streamId)) * 31 + typeUrl.hashCode();
    }
  }

  /**
   * Sent and acknowledged. Versions and times are null until something was sent or ACKed.
   *
   * @param syncedEpoch the newest epoch whose content of this type the client holds exactly
   * @param refusing its standing NACKs: resource name -> the version it refused and is offered around
   * @param wildcard whether the stream subscribes to the whole type
   * @param names the names it subscribes to by name, as its requests said
   */
  public record Position(
      String sentVersion,
      long sentEpoch,
      Instant sentAt,
      String ackedVersion,
      long ackedEpoch,
      Instant ackedAt,
      long syncedEpoch,
      java.util.Map<String, String> refusing,
      boolean wildcard,
      java.util.Set<String> names) {

    public static final Position NOTHING_SENT = new Position(null, 0, null, null, 0, null, 0);

    public Position {
      refusing = refusing == null ? java.util.Map.of() : java.util.Map.copyOf(refusing);
      names = names == null ? java.util.Set.of() : names;
    }

    /** A position whose subscription is not known. */
    public Position(String sentVersion, long sentEpoch, Instant sentAt, String ackedVersion, long ackedEpoch,
        Instant ackedAt, long syncedEpoch, java.util.Map<String, String> refusing) {
      this(sentVersion, sentEpoch, sentAt, ackedVersion, ackedEpoch, ackedAt, syncedEpoch, refusing, false,
          java.util.Set.of());
    }

    /** A position with no standing NACK. */
    public Position(String sentVersion, long sentEpoch, Instant sentAt, String ackedVersion, long ackedEpoch,
        Instant ackedAt, long syncedEpoch) {
      this(sentVersion, sentEpoch, sentAt, ackedVersion, ackedEpoch, ackedAt, syncedEpoch, java.util.Map.of());
    }
  }

  /** @param epoch the epoch named by the rejected version */
  public record LastNack(long epoch, String message, Instant at) {
    public LastNack {
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(at, "at");
    }
  }

  public ClientRecord {
    Objects.requireNonNull(key, "key");
    nodeCluster = nodeCluster == null ? "" : nodeCluster;
    zone = zone == null ? "" : zone;
    userAgent = userAgent == null ? "" : userAgent;
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(lastSeenAt, "lastSeenAt");
  }

  /** This row, for a stream that is gone, seen for the last time at {@code at}. */
  public ClientRecord disconnected(Instant at) {
    return new ClientRecord(key, nodeCluster, zone, userAgent, position, lastNack, nackCount, at, false);
  }
}
