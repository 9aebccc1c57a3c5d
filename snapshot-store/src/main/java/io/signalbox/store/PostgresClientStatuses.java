package io.signalbox.store;

import static io.signalbox.store.DatabaseCall.call;
import static io.signalbox.store.UtcTimestamps.instantOrNull;
import static io.signalbox.store.UtcTimestamps.utc;
import static io.signalbox.store.UtcTimestamps.utcOrNull;
import static io.signalbox.store.jooq.Tables.CLIENT_STATUS;
import static io.signalbox.store.jooq.Tables.NACK_EVENTS;

import io.signalbox.store.jooq.tables.records.ClientStatusRecord;
import io.signalbox.store.jooq.tables.records.NackEventsRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.impl.DSL;

/**
 * What the xDS clients did: one {@code client_status} row per replica, node, stream and type (the
 * latest position, replaced whole by each save), and every NACK as a row of {@code nack_events}.
 */
final class PostgresClientStatuses {

  private final DSLContext db;

  PostgresClientStatuses(DSLContext db) {
    this.db = db;
  }

  void save(List<ClientRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    // One row per key (the later wins): PostgreSQL refuses an upsert that touches a row twice.
    Map<ClientRecord.Key, ClientRecord> byKey = new LinkedHashMap<>();
    records.forEach(r -> byKey.put(r.key(), r));
    List<ClientRecord> rows = new ArrayList<>(byKey.values());
    call("save client statuses", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      // Multi-row upserts, chunked to stay far below the JDBC driver's 32767 bind values.
      for (int from = 0; from < rows.size(); from += UPSERT_ROWS) {
        upsert(t, rows.subList(from, Math.min(rows.size(), from + UPSERT_ROWS)));
      }
      return null;
    }));
  }

  private static final int UPSERT_ROWS = 500;

  private static void upsert(DSLContext t, List<ClientRecord> rows) {
    InsertSetMoreStep<ClientStatusRecord> insert = t.insertInto(CLIENT_STATUS).set(toRow(rows.get(0)));
    for (ClientRecord r : rows.subList(1, rows.size())) {
      insert = insert.newRecord().set(toRow(r));
    }
    insert.onConflict(CLIENT_STATUS.getPrimaryKey().getFields())
        .doUpdate()
        .set(EXCLUDED_VALUES)
        .execute();
  }

  /** Every column but the key, set to the value the upsert tried to insert. */
  private static final Map<Field<?>, Field<?>> EXCLUDED_VALUES = excludedValues();

  private static Map<Field<?>, Field<?>> excludedValues() {
    Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
    for (Field<?> f : CLIENT_STATUS.fields()) {
      if (!CLIENT_STATUS.getPrimaryKey().getFields().contains(f)) {
        values.put(f, DSL.excluded(f));
      }
    }
    return values;
  }

  private static ClientStatusRecord toRow(ClientRecord r) {
    ClientRecord.Position p = r.position();
    ClientRecord.LastNack n = r.lastNack();
    ClientStatusRecord row = new ClientStatusRecord();
    row.setReplica(r.key().replicaId());
    row.setNodeId(r.key().nodeId());
    row.setStreamId(r.key().streamId());
    row.setTypeUrl(r.key().typeUrl());
    row.setNodeCluster(r.nodeCluster());
    row.setZone(r.zone());
    row.setUserAgent(r.userAgent());
    row.setSentVersion(p.sentVersion());
    row.setSentEpoch(p.sentEpoch());
    row.setSentAt(utcOrNull(p.sentAt()));
    row.setAckedVersion(p.ackedVersion());
    row.setAckedEpoch(p.ackedEpoch());
    row.setAckedAt(utcOrNull(p.ackedAt()));
    row.setSyncedEpoch(p.syncedEpoch());
    row.setRefusing(encode(p.refusing()));
    row.setNackEpoch(n == null ? null : n.epoch());
    row.setNackMessage(n == null ? null : n.message());
    row.setNackAt(n == null ? null : utc(n.at()));
    row.setNacks(r.nackCount());
    row.setLastSeenAt(utc(r.lastSeenAt()));
    row.setConnected(r.connected());
    // Every column is written, NULLs included, so an upsert replaces the whole row.
    row.changed(true);
    return row;
  }

  List<ClientRecord> all() {
    return call("read client statuses", () -> db.selectFrom(CLIENT_STATUS)
        // Same order as InMemorySnapshotStore; "C" so strings sort as Java compares them.
        .orderBy(CLIENT_STATUS.LAST_SEEN_AT.desc(), CLIENT_STATUS.REPLICA.collate("C"),
            CLIENT_STATUS.NODE_ID.collate("C"), CLIENT_STATUS.STREAM_ID, CLIENT_STATUS.TYPE_URL.collate("C"))
        .fetch(PostgresClientStatuses::toClientRecord));
  }

  private static ClientRecord toClientRecord(ClientStatusRecord r) {
    ClientRecord.LastNack nack = r.getNackAt() == null ? null
        : new ClientRecord.LastNack(r.getNackEpoch(), r.getNackMessage(), r.getNackAt().toInstant());
    return new ClientRecord(
        new ClientRecord.Key(r.getReplica(), r.getNodeId(), r.getStreamId(), r.getTypeUrl()),
        r.getNodeCluster(), r.getZone(), r.getUserAgent(),
        new ClientRecord.Position(r.getSentVersion(), r.getSentEpoch(), instantOrNull(r.getSentAt()),
            r.getAckedVersion(), r.getAckedEpoch(), instantOrNull(r.getAckedAt()), r.getSyncedEpoch(),
            decode(r.getRefusing())),
        nack, r.getNacks(), r.getLastSeenAt().toInstant(), r.getConnected());
  }

  /** {@code name=version} lines: versions are hex, names carry no line breaks (NameRules). */
  static String encode(Map<String, String> refusing) {
    StringBuilder s = new StringBuilder();
    new java.util.TreeMap<>(refusing).forEach((name, version) -> s.append(name).append('=').append(version).append('\n'));
    return s.toString();
  }

  static Map<String, String> decode(String lines) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : lines.split("\n")) {
      int eq = line.lastIndexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }

  int disconnectAll(java.util.Set<String> alive) {
    return call("mark clients disconnected", () -> db.update(CLIENT_STATUS)
        .set(CLIENT_STATUS.CONNECTED, false)
        .where(CLIENT_STATUS.CONNECTED.isTrue())
        .and(alive.isEmpty() ? DSL.trueCondition() : CLIENT_STATUS.REPLICA.notIn(alive))
        .execute());
  }

  void recordNack(NackEvent event) {
    call("record NACK event", () -> db.insertInto(NACK_EVENTS)
        .set(NACK_EVENTS.AT, utc(event.at()))
        .set(NACK_EVENTS.REPLICA, event.client().replicaId())
        .set(NACK_EVENTS.NODE_ID, event.client().nodeId())
        .set(NACK_EVENTS.NODE_CLUSTER, event.nodeCluster())
        .set(NACK_EVENTS.STREAM_ID, event.client().streamId())
        .set(NACK_EVENTS.TYPE_URL, event.client().typeUrl())
        .set(NACK_EVENTS.EPOCH, event.epoch())
        .set(NACK_EVENTS.SNAPSHOT_EPOCH, event.snapshotEpoch())
        .set(NACK_EVENTS.MESSAGE, event.message())
        // NackEvent refuses names with line breaks, so lines round-trip exactly.
        .set(NACK_EVENTS.RESOURCES, String.join("\n", event.resources()))
        .execute());
  }

  List<NackEvent> nackEvents(int limit) {
    return call("read NACK events", () -> nackEvents(DSL.trueCondition(), limit));
  }

  List<NackEvent> nackEvents(long snapshotEpoch) {
    return call("read NACK events of epoch " + snapshotEpoch,
        () -> nackEvents(NACK_EVENTS.SNAPSHOT_EPOCH.eq(snapshotEpoch), Integer.MAX_VALUE));
  }

  private List<NackEvent> nackEvents(Condition where, int limit) {
    return db.selectFrom(NACK_EVENTS).where(where).orderBy(NACK_EVENTS.ID.desc()).limit(limit)
        .fetch(PostgresClientStatuses::toNackEvent);
  }

  private static NackEvent toNackEvent(NackEventsRecord r) {
    return new NackEvent(new ClientRecord.Key(r.getReplica(), r.getNodeId(), r.getStreamId(), r.getTypeUrl()),
        r.getNodeCluster(), r.getAt().toInstant(), r.getEpoch(), r.getSnapshotEpoch(), r.getMessage(),
        r.getResources().isEmpty() ? List.of() : Arrays.asList(r.getResources().split("\n", -1)));
  }
}
