package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.instantOrNull;
import static io.signalbox.store.postgres.UtcTimestamps.micros;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.CLIENT_STATUS;
import static io.signalbox.store.jooq.Tables.NACK_EVENTS;

import io.signalbox.store.ClientRecord;
import io.signalbox.store.ClientStatusStore;
import io.signalbox.store.NackEvent;
import io.signalbox.store.jooq.tables.records.ClientStatusRecord;
import io.signalbox.store.jooq.tables.records.NackEventsRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * What the xDS clients did: one {@code client_status} row per replica, node, stream and type (the
 * latest position, replaced whole by each save), and every NACK as a row of {@code nack_events}.
 */
final class PostgresClientStatuses implements ClientStatusStore {

  private final DSLContext db;

  PostgresClientStatuses(DSLContext db) {
    this.db = db;
  }

  @Override
  public void save(List<ClientRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    // One row per key (the later wins): PostgreSQL refuses an upsert that touches a row twice.
    Map<ClientRecord.Key, ClientRecord> byKey = new LinkedHashMap<>();
    records.forEach(r -> byKey.put(r.key(), r));
    List<ClientRecord> rows = new ArrayList<>(byKey.values());
    call("save client statuses", () -> db.transactionResult(tx -> {
      tx.dsl().connection(c -> upsert(c, rows));
      return null;
    }));
  }

  /**
   * Every row in one statement whatever their number: one array per column, {@code unnest}ed into
   * rows. The recorder writes a row per client and type after every change (a thousand clients, a
   * thousand rows); built as a multi-row {@code VALUES} with a bind value per cell, rendering that
   * statement was most of the server's CPU per change (docs/benchmarks-history.md, issue 17). Times travel
   * as microseconds since the epoch, PostgreSQL's own precision.
   */
  private static void upsert(Connection c, List<ClientRecord> rows) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(UPSERT)) {
      for (int i = 0; i < COLUMNS.size(); i++) {
        Column<?> column = COLUMNS.get(i);
        s.setArray(i + 1, c.createArrayOf(column.arrayType(), column.values(rows)));
      }
      s.executeUpdate();
    }
  }

  /**
   * One column of the upsert: its name, the element type of its array, its value in a row, and
   * whether that value is a time sent as microseconds.
   */
  private record Column<T>(String name, String arrayType, IntFunction<T[]> newArray, Function<ClientRecord, T> value,
      boolean time) {
    Object[] values(List<ClientRecord> rows) {
      T[] out = newArray.apply(rows.size());
      for (int i = 0; i < out.length; i++) {
        out[i] = value.apply(rows.get(i));
      }
      return out;
    }

    static Column<String> text(String name, Function<ClientRecord, String> value) {
      return new Column<>(name, "varchar", String[]::new, value, false);
    }

    static Column<Long> number(String name, Function<ClientRecord, Long> value) {
      return new Column<>(name, "int8", Long[]::new, value, false);
    }

    /** Microseconds since the epoch; {@link #upsertSql} turns them back into a {@code timestamptz}. */
    static Column<Long> time(String name, Function<ClientRecord, Instant> value) {
      return new Column<>(name, "int8", Long[]::new, r -> micros(value.apply(r)), true);
    }
  }

  /** Every column of {@code client_status}, in the order the upsert binds them. */
  private static final List<Column<?>> COLUMNS = List.of(
      Column.text("replica", r -> r.key().replicaId()),
      Column.text("node_id", r -> r.key().nodeId()),
      Column.number("stream_id", r -> r.key().streamId()),
      Column.text("type_url", r -> r.key().typeUrl()),
      Column.text("node_cluster", ClientRecord::nodeCluster),
      Column.text("zone", ClientRecord::zone),
      Column.text("user_agent", ClientRecord::userAgent),
      Column.text("sent_version", r -> r.position().sentVersion()),
      Column.number("sent_epoch", r -> r.position().sentEpoch()),
      Column.time("sent_at", r -> r.position().sentAt()),
      Column.text("acked_version", r -> r.position().ackedVersion()),
      Column.number("acked_epoch", r -> r.position().ackedEpoch()),
      Column.time("acked_at", r -> r.position().ackedAt()),
      Column.number("synced_epoch", r -> r.position().syncedEpoch()),
      Column.text("refusing", r -> encode(r.position().refusing())),
      Column.text("subscribed", r -> SubscribedColumn.encode(r.position().wildcard(), r.position().names())),
      Column.number("nack_epoch", r -> r.lastNack() == null ? null : r.lastNack().epoch()),
      Column.text("nack_message", r -> r.lastNack() == null ? null : r.lastNack().message()),
      Column.time("nack_at", r -> r.lastNack() == null ? null : r.lastNack().at()),
      Column.number("nacks", ClientRecord::nackCount),
      Column.time("last_seen_at", ClientRecord::lastSeenAt),
      new Column<>("connected", "bool", Boolean[]::new, ClientRecord::connected, false));

  private static final java.util.Set<String> KEY = java.util.Set.of("replica", "node_id", "stream_id", "type_url");

  private static final String UPSERT = upsertSql();

  private static String upsertSql() {
    List<String> table = Arrays.stream(CLIENT_STATUS.fields()).map(f -> f.getName()).sorted().toList();
    List<String> bound = COLUMNS.stream().map(Column::name).sorted().toList();
    if (!table.equals(bound)) {
      // A migration added or renamed a column: upsert must bind it, or an upsert would keep a stale value.
      throw new IllegalStateException("client_status has columns " + table + ", the upsert binds " + bound);
    }
    StringBuilder columns = new StringBuilder();
    StringBuilder values = new StringBuilder();
    StringBuilder arrays = new StringBuilder();
    StringBuilder updates = new StringBuilder();
    for (Column<?> column : COLUMNS) {
      String name = column.name();
      String sep = columns.length() == 0 ? "" : ", ";
      columns.append(sep).append(name);
      values.append(sep).append(column.time()
          ? "timestamptz 'epoch' + u." + name + " * interval '1 microsecond'" : "u." + name);
      arrays.append(sep).append("?::").append(column.arrayType()).append("[]");
      if (!KEY.contains(name)) {
        updates.append(updates.length() == 0 ? "" : ", ").append(name).append(" = excluded.").append(name);
      }
    }
    return "INSERT INTO client_status (" + columns + ") SELECT " + values + " FROM unnest(" + arrays + ") AS u("
        + columns + ") ON CONFLICT (replica, node_id, stream_id, type_url) DO UPDATE SET " + updates;
  }

  @Override
  public List<ClientRecord> all() {
    return call("read client statuses", () -> db.selectFrom(CLIENT_STATUS)
        // Same order as InMemoryClientStatuses; "C" so strings sort as Java compares them.
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
            decode(r.getRefusing()), SubscribedColumn.wildcard(r.getSubscribed()),
            SubscribedColumn.names(r.getSubscribed())),
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

  @Override
  public int disconnectAllBut(java.util.Set<String> alive) {
    return call("mark clients disconnected", () -> db.update(CLIENT_STATUS)
        .set(CLIENT_STATUS.CONNECTED, false)
        .where(CLIENT_STATUS.CONNECTED.isTrue())
        .and(alive.isEmpty() ? DSL.trueCondition() : CLIENT_STATUS.REPLICA.notIn(alive))
        .execute());
  }

  @Override
  public void recordNack(NackEvent event) {
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

  @Override
  public List<NackEvent> recentNacks(int limit) {
    return call("read NACK events", () -> nackEvents(DSL.trueCondition(), limit));
  }

  @Override
  public List<NackEvent> nacksOf(long snapshotEpoch) {
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
