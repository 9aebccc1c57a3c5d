package io.signalbox.controlplane.fleet;

import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.NackEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Turns the xDS server's view of its clients into the store's plain rows and events. */
final class ClientRows {

  private ClientRows() {}

  /** One row per type of {@code c}, connected and seen at {@code now}. */
  static List<ClientRecord> of(String replicaId, ClientStatus c, Instant now) {
    List<ClientRecord> rows = new ArrayList<>(c.types().size());
    for (Map.Entry<String, TypeStatus> e : c.types().entrySet()) {
      TypeStatus t = e.getValue();
      NackStatus nack = t.nack();
      rows.add(new ClientRecord(
          new ClientRecord.Key(replicaId, c.nodeId(), c.streamId(), e.getKey()),
          c.nodeCluster(), c.zone(), c.userAgent(),
          // The standing NACKs too: the leader reads other replicas' clients from these rows, and
          // rolls back what they refuse as it does for its own.
          new ClientRecord.Position(t.sentVersion(), t.sentEpoch(), t.sentAt(), t.ackedVersion(), t.ackedEpoch(),
              t.ackedAt(), t.syncedEpoch(), t.refusing(), t.wildcard(), t.names()),
          nack == null ? null : new ClientRecord.LastNack(nack.epoch(), nack.message(), nack.at()),
          t.nacks(), now, true));
    }
    return rows;
  }

  /** The row of type {@code typeUrl} of {@code c}, connected and seen at {@code now}, or null if it has none. */
  static ClientRecord of(String replicaId, ClientStatus c, String typeUrl, Instant now) {
    for (ClientRecord row : of(replicaId, c, now)) {
      if (row.key().typeUrl().equals(typeUrl)) {
        return row;
      }
    }
    return null;
  }

  /** The most recent NACK of one stream and type, as an event. */
  static NackEvent nackEvent(ClientRecord.Key key, String nodeCluster, NackStatus nack) {
    return new NackEvent(key, nodeCluster, nack.at(), nack.epoch(), nack.snapshotEpoch(), nack.message(),
        List.copyOf(nack.resources().keySet()));
  }

  /** Whether two rows differ in anything but when they were seen. */
  static boolean sameButSeen(ClientRecord a, ClientRecord b) {
    return sameButSeenAndDelivery(a, b) && sameDelivery(a.position(), b.position());
  }

  /**
   * Whether two rows differ in nothing but when they were seen and how far delivery got: what was
   * sent and ACKed, when, and the epoch held. What a client refuses, its NACKs and who it is count.
   *
   * <p>Field by field, not as a copy compared with the records' equals: the recorder asks this of
   * every row it looks at, and the records' generated equals (method handles, inlined) made its
   * loop the costliest method C2 compiled in a run (docs/benchmarks-history.md). ClientRowsTest checks
   * that every component but {@code lastSeenAt} and the delivery fields counts.
   */
  static boolean sameButSeenAndDelivery(ClientRecord a, ClientRecord b) {
    return a.connected() == b.connected()
        && a.nackCount() == b.nackCount()
        && a.position().refusing().equals(b.position().refusing())
        && a.position().wildcard() == b.position().wildcard()
        && a.position().names().equals(b.position().names())
        && Objects.equals(a.lastNack(), b.lastNack())
        && a.nodeCluster().equals(b.nodeCluster())
        && a.zone().equals(b.zone())
        && a.userAgent().equals(b.userAgent())
        && a.key().equals(b.key());
  }

  /**
   * Whether the rows of {@code now} would differ from those of {@code before} in nothing but when
   * they were seen and how far delivery got ({@link #sameButSeenAndDelivery} for every row, the
   * same rows), decided on the statuses themselves: after a change of endpoints every client's
   * status moves, almost always in delivery only, and building four rows per client to find that
   * out was most of what the recorder cost. ClientRowsTest holds it to the rows over seeded random
   * statuses.
   */
  static boolean sameButDelivery(ClientStatus before, ClientStatus now) {
    if (before.streamId() != now.streamId() || !before.nodeId().equals(now.nodeId())
        || !before.nodeCluster().equals(now.nodeCluster()) || !before.zone().equals(now.zone())
        || !before.userAgent().equals(now.userAgent()) || before.types().size() != now.types().size()) {
      return false;
    }
    for (Map.Entry<String, TypeStatus> e : now.types().entrySet()) {
      TypeStatus t = e.getValue();
      TypeStatus b = before.types().get(e.getKey());
      if (b == null) {
        return false;
      }
      if (b != t && (b.nacks() != t.nacks() || !sameLastNack(b.nack(), t.nack()) || !b.refusing().equals(t.refusing())
          || b.wildcard() != t.wildcard() || !b.names().equals(t.names()))) {
        return false;
      }
    }
    return true;
  }

  /** Whether two NACKs make the same {@link ClientRecord.LastNack}. */
  private static boolean sameLastNack(NackStatus a, NackStatus b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a == b || a.epoch() == b.epoch() && a.message().equals(b.message()) && a.at().equals(b.at());
  }

  /** Whether every type of {@code c} has an ACK: its rows show the client got a config. */
  static boolean everyTypeAcked(ClientStatus c) {
    for (TypeStatus t : c.types().values()) {
      if (t.ackedEpoch() <= 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether two positions record the same delivery: sent, ACKed and held alike. */
  static boolean sameDelivery(ClientRecord.Position p, ClientRecord.Position q) {
    return p.sentEpoch() == q.sentEpoch()
        && p.ackedEpoch() == q.ackedEpoch()
        && p.syncedEpoch() == q.syncedEpoch()
        && Objects.equals(p.sentVersion(), q.sentVersion())
        && Objects.equals(p.ackedVersion(), q.ackedVersion())
        && Objects.equals(p.sentAt(), q.sentAt())
        && Objects.equals(p.ackedAt(), q.ackedAt());
  }
}
