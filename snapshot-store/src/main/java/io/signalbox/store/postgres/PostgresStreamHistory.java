package io.signalbox.store.postgres;

import static io.signalbox.store.jooq.Tables.STREAM_EVENTS;
import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;

import io.signalbox.store.StreamEvent;
import io.signalbox.store.StreamHistory;
import io.signalbox.store.jooq.tables.records.StreamEventsRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record1;

/** {@link StreamHistory} as rows of {@code stream_events} (V13). */
final class PostgresStreamHistory implements StreamHistory {

  // One array per column, unnested into rows: a batch of a thousand events is one statement with
  // eleven bind values, not eleven thousand (rendering those was most of the CPU of the client status
  // upsert before it did the same; docs/benchmarks-history.md, issue 17). Times as microseconds.
  private static final String INSERT = "INSERT INTO stream_events (at, replica, node_id, stream_id, type, kind, epoch,"
      + " version, message, resources) SELECT timestamptz 'epoch' + u.at * interval '1 microsecond', u.replica,"
      + " u.node_id, u.stream_id, u.type, u.kind, u.epoch, u.version, u.message, u.resources FROM unnest("
      + "?::int8[], ?::varchar[], ?::varchar[], ?::int8[], ?::varchar[], ?::varchar[], ?::int8[], ?::varchar[],"
      + " ?::varchar[], ?::varchar[]) AS u(at, replica, node_id, stream_id, type, kind, epoch, version, message,"
      + " resources)";

  private final DSLContext db;

  PostgresStreamHistory(DSLContext db) {
    this.db = db;
  }

  @Override
  public void append(List<StreamEvent> events) {
    if (events.isEmpty()) {
      return;
    }
    call("append stream events", () -> {
      db.connection(c -> insert(c, events));
      return null;
    });
  }

  private static void insert(Connection c, List<StreamEvent> events) throws SQLException {
    int n = events.size();
    Long[] at = new Long[n];
    Long[] stream = new Long[n];
    Long[] epoch = new Long[n];
    String[][] text = new String[7][n];
    for (int i = 0; i < n; i++) {
      StreamEvent e = events.get(i);
      at[i] = UtcTimestamps.micros(e.at());
      stream[i] = e.streamId();
      epoch[i] = e.epoch();
      text[0][i] = e.replicaId();
      text[1][i] = e.nodeId();
      text[2][i] = e.type();
      text[3][i] = e.kind().name();
      text[4][i] = e.version();
      text[5][i] = e.message();
      // StreamEvent refuses names with line breaks, so lines round-trip exactly.
      text[6][i] = String.join("\n", e.resources());
    }
    try (PreparedStatement s = c.prepareStatement(INSERT)) {
      s.setArray(1, c.createArrayOf("int8", at));
      s.setArray(2, c.createArrayOf("varchar", text[0]));
      s.setArray(3, c.createArrayOf("varchar", text[1]));
      s.setArray(4, c.createArrayOf("int8", stream));
      s.setArray(5, c.createArrayOf("varchar", text[2]));
      s.setArray(6, c.createArrayOf("varchar", text[3]));
      s.setArray(7, c.createArrayOf("int8", epoch));
      s.setArray(8, c.createArrayOf("varchar", text[4]));
      s.setArray(9, c.createArrayOf("varchar", text[5]));
      s.setArray(10, c.createArrayOf("varchar", text[6]));
      s.executeUpdate();
    }
  }

  @Override
  public List<StreamEvent> ofNode(String nodeId, Instant since, String type, int limit) {
    Condition where = STREAM_EVENTS.NODE_ID.eq(nodeId).and(STREAM_EVENTS.AT.ge(utc(since)));
    if (type != null) {
      where = where.and(STREAM_EVENTS.TYPE.eq(type).or(STREAM_EVENTS.KIND.eq(StreamEvent.Kind.CLOSED.name())));
    }
    Condition filter = where;
    List<StreamEvent> newest = call("read stream events of node " + nodeId, () -> db.selectFrom(STREAM_EVENTS)
        .where(filter).orderBy(STREAM_EVENTS.AT.desc(), STREAM_EVENTS.ID.desc()).limit(limit)
        .fetch(PostgresStreamHistory::toEvent));
    List<StreamEvent> oldestFirst = new ArrayList<>(newest);
    java.util.Collections.reverse(oldestFirst);
    return oldestFirst;
  }

  @Override
  public List<StreamEvent> latestAt(Instant at) {
    return call("read stream events as of " + at, () -> db.select(STREAM_EVENTS.fields())
        .distinctOn(STREAM_EVENTS.REPLICA, STREAM_EVENTS.STREAM_ID, STREAM_EVENTS.TYPE, STREAM_EVENTS.KIND)
        .from(STREAM_EVENTS)
        .where(STREAM_EVENTS.AT.le(utc(at)))
        .orderBy(STREAM_EVENTS.REPLICA, STREAM_EVENTS.STREAM_ID, STREAM_EVENTS.TYPE, STREAM_EVENTS.KIND,
            STREAM_EVENTS.AT.desc(), STREAM_EVENTS.ID.desc())
        .fetch(r -> toEvent(r.into(STREAM_EVENTS))));
  }

  @Override
  public long prune(Instant before, long keep) {
    return call("prune stream events", () -> {
      long deleted = db.deleteFrom(STREAM_EVENTS).where(STREAM_EVENTS.AT.lt(utc(before))).execute();
      // Ids grow in append order: everything at or below the (keep+1)-th newest id goes.
      Record1<Long> cut = db.select(STREAM_EVENTS.ID).from(STREAM_EVENTS).orderBy(STREAM_EVENTS.ID.desc())
          .offset(keep).limit(1).fetchOne();
      if (cut != null) {
        deleted += db.deleteFrom(STREAM_EVENTS).where(STREAM_EVENTS.ID.le(cut.value1())).execute();
      }
      return deleted;
    });
  }

  @Override
  public long count() {
    return call("count stream events", () -> db.fetchCount(STREAM_EVENTS));
  }

  private static StreamEvent toEvent(StreamEventsRecord r) {
    String resources = r.getResources();
    return new StreamEvent(r.getAt().toInstant(), r.getReplica(), r.getNodeId(), r.getStreamId(), r.getType(),
        StreamEvent.Kind.valueOf(r.getKind()), r.getEpoch(), r.getVersion(), r.getMessage(),
        resources.isEmpty() ? List.of() : Arrays.asList(resources.split("\n")));
  }
}
