package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.LOAD_CLIENTS;
import static io.signalbox.store.jooq.Tables.LOAD_DROPS;
import static io.signalbox.store.jooq.Tables.LOAD_INTERVALS;

import io.signalbox.store.LoadReportStore;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Load reports in {@code load_intervals}, {@code load_drops} and {@code load_clients}: every
 * replica writes its own rows, every replica reads all of them, so their sums are one view.
 */
final class PostgresLoadReports implements LoadReportStore {

  private final DSLContext db;

  PostgresLoadReports(DSLContext db) {
    this.db = db;
  }

  /**
   * One transaction; each table's rows as one batch of a statement rendered once and bound per row
   * (one round trip). A multi-row {@code VALUES} rendered per call cost jOOQ a render of every bind
   * value every interval (1,000 client rows × 6) and the JIT a steady trickle of compiles.
   */
  @Override
  public void write(List<LoadRow> loads, List<DropRow> drops, List<ClientLoadRow> clients) {
    call("write load reports", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      if (!loads.isEmpty()) {
        var batch = t.batch(t.insertInto(LOAD_INTERVALS, LOAD_INTERVALS.INTERVAL_START, LOAD_INTERVALS.REPLICA,
                LOAD_INTERVALS.CLUSTER, LOAD_INTERVALS.REGION, LOAD_INTERVALS.ZONE, LOAD_INTERVALS.SUB_ZONE,
                LOAD_INTERVALS.ENDPOINT, LOAD_INTERVALS.ISSUED, LOAD_INTERVALS.SUCCEEDED, LOAD_INTERVALS.ERRORED,
                LOAD_INTERVALS.IN_FLIGHT)
            .values((OffsetDateTime) null, null, null, null, null, null, null, null, null, null, null)
            .onConflict(LOAD_INTERVALS.CLUSTER, LOAD_INTERVALS.INTERVAL_START, LOAD_INTERVALS.REPLICA,
                LOAD_INTERVALS.REGION, LOAD_INTERVALS.ZONE, LOAD_INTERVALS.SUB_ZONE, LOAD_INTERVALS.ENDPOINT)
            .doUpdate()
            .set(LOAD_INTERVALS.ISSUED, DSL.excluded(LOAD_INTERVALS.ISSUED))
            .set(LOAD_INTERVALS.SUCCEEDED, DSL.excluded(LOAD_INTERVALS.SUCCEEDED))
            .set(LOAD_INTERVALS.ERRORED, DSL.excluded(LOAD_INTERVALS.ERRORED))
            .set(LOAD_INTERVALS.IN_FLIGHT, DSL.excluded(LOAD_INTERVALS.IN_FLIGHT)));
        for (LoadRow r : loads) {
          batch = batch.bind(utc(r.intervalStart()), r.replica(), r.cluster(), r.region(), r.zone(), r.subZone(),
              r.endpoint(), r.issued(), r.succeeded(), r.errored(), r.inFlight());
        }
        batch.execute();
      }
      if (!drops.isEmpty()) {
        var batch = t.batch(t.insertInto(LOAD_DROPS, LOAD_DROPS.INTERVAL_START, LOAD_DROPS.REPLICA,
                LOAD_DROPS.CLUSTER, LOAD_DROPS.CATEGORY, LOAD_DROPS.DROPPED)
            .values((OffsetDateTime) null, null, null, null, null)
            .onConflict(LOAD_DROPS.CLUSTER, LOAD_DROPS.INTERVAL_START, LOAD_DROPS.REPLICA, LOAD_DROPS.CATEGORY)
            .doUpdate().set(LOAD_DROPS.DROPPED, DSL.excluded(LOAD_DROPS.DROPPED)));
        for (DropRow r : drops) {
          batch = batch.bind(utc(r.intervalStart()), r.replica(), r.cluster(), r.category(), r.dropped());
        }
        batch.execute();
      }
      if (!clients.isEmpty()) {
        var batch = t.batch(t.insertInto(LOAD_CLIENTS, LOAD_CLIENTS.NODE_ID, LOAD_CLIENTS.REPLICA,
                LOAD_CLIENTS.LAST_REPORT, LOAD_CLIENTS.REPORTING_SINCE, LOAD_CLIENTS.CLUSTERS, LOAD_CLIENTS.WORK)
            .values(null, null, (OffsetDateTime) null, null, null, null)
            .onConflict(LOAD_CLIENTS.NODE_ID, LOAD_CLIENTS.REPLICA)
            .doUpdate()
            .set(LOAD_CLIENTS.LAST_REPORT, DSL.excluded(LOAD_CLIENTS.LAST_REPORT))
            .set(LOAD_CLIENTS.REPORTING_SINCE, DSL.excluded(LOAD_CLIENTS.REPORTING_SINCE))
            .set(LOAD_CLIENTS.CLUSTERS, DSL.excluded(LOAD_CLIENTS.CLUSTERS))
            .set(LOAD_CLIENTS.WORK, DSL.excluded(LOAD_CLIENTS.WORK))
            // A slower replica's older row never replaces a newer one.
            .where(LOAD_CLIENTS.LAST_REPORT.le(DSL.excluded(LOAD_CLIENTS.LAST_REPORT))));
        for (ClientLoadRow r : clients) {
          batch = batch.bind(r.nodeId(), r.replica(), utc(r.lastReport()), utc(r.reportingSince()), r.clusters(),
              r.work());
        }
        batch.execute();
      }
      return null;
    }));
  }

  @Override
  public int touch(List<ClientFreshness> fresher) {
    if (fresher.isEmpty()) {
      return 0;
    }
    return call("write load reports", () -> db.transactionResult(tx -> {
      // Only the timestamp changes: PostgreSQL keeps the row's stored clusters and work as they are.
      var batch = tx.dsl().batch(tx.dsl().update(LOAD_CLIENTS)
          .set(LOAD_CLIENTS.LAST_REPORT, (java.time.OffsetDateTime) null)
          .where(LOAD_CLIENTS.NODE_ID.eq((String) null))
          .and(LOAD_CLIENTS.REPLICA.eq((String) null))
          .and(LOAD_CLIENTS.LAST_REPORT.le((java.time.OffsetDateTime) null)));
      for (ClientFreshness f : fresher) {
        batch = batch.bind(utc(f.lastReport()), f.nodeId(), f.replica(), utc(f.lastReport()));
      }
      int found = 0;
      for (int n : batch.execute()) {
        // A driver may answer "done, count unknown" (SUCCESS_NO_INFO, -2) for a batched statement.
        found += n == java.sql.Statement.SUCCESS_NO_INFO ? 1 : n;
      }
      return found;
    }));
  }

  @Override
  public List<LoadRow> loads(String cluster, Instant since) {
    return loads(LOAD_INTERVALS.CLUSTER.eq(cluster), since);
  }

  @Override
  public List<DropRow> drops(String cluster, Instant since) {
    return drops(LOAD_DROPS.CLUSTER.eq(cluster), since);
  }

  @Override
  public List<LoadRow> loads(Instant since) {
    return loads(DSL.noCondition(), since);
  }

  @Override
  public List<DropRow> drops(Instant since) {
    return drops(DSL.noCondition(), since);
  }

  private List<LoadRow> loads(Condition clusters, Instant since) {
    return call("read load reports", () -> db.selectFrom(LOAD_INTERVALS)
        .where(clusters.and(LOAD_INTERVALS.INTERVAL_START.ge(utc(since))))
        .orderBy(LOAD_INTERVALS.CLUSTER, LOAD_INTERVALS.INTERVAL_START, LOAD_INTERVALS.REPLICA, LOAD_INTERVALS.REGION,
            LOAD_INTERVALS.ZONE, LOAD_INTERVALS.SUB_ZONE, LOAD_INTERVALS.ENDPOINT)
        .fetch(r -> new LoadRow(r.getIntervalStart().toInstant(), r.getReplica(), r.getCluster(), r.getRegion(),
            r.getZone(), r.getSubZone(), r.getEndpoint(), r.getIssued(), r.getSucceeded(), r.getErrored(),
            r.getInFlight())));
  }

  private List<DropRow> drops(Condition clusters, Instant since) {
    return call("read load reports", () -> db.selectFrom(LOAD_DROPS)
        .where(clusters.and(LOAD_DROPS.INTERVAL_START.ge(utc(since))))
        .orderBy(LOAD_DROPS.CLUSTER, LOAD_DROPS.INTERVAL_START, LOAD_DROPS.REPLICA, LOAD_DROPS.CATEGORY)
        .fetch(r -> new DropRow(r.getIntervalStart().toInstant(), r.getReplica(), r.getCluster(), r.getCategory(),
            r.getDropped())));
  }

  @Override
  public List<ClientLoadRow> clients(Instant since) {
    return call("read load reports", () -> db.selectFrom(LOAD_CLIENTS)
        .where(LOAD_CLIENTS.LAST_REPORT.ge(utc(since)))
        .orderBy(LOAD_CLIENTS.NODE_ID, LOAD_CLIENTS.REPLICA)
        .fetch(r -> new ClientLoadRow(r.getNodeId(), r.getReplica(), r.getLastReport().toInstant(),
            r.getReportingSince().toInstant(), r.getClusters(), r.getWork())));
  }

  @Override
  public List<String> clusters(Instant since) {
    return call("read load reports", () -> db.select(LOAD_INTERVALS.CLUSTER).from(LOAD_INTERVALS)
        .where(LOAD_INTERVALS.INTERVAL_START.ge(utc(since)))
        .union(db.select(LOAD_DROPS.CLUSTER).from(LOAD_DROPS).where(LOAD_DROPS.INTERVAL_START.ge(utc(since))))
        .orderBy(DSL.field("cluster"))
        .fetch(r -> r.value1()));
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    return call("delete old load reports", () -> db.transactionResult(tx ->
        tx.dsl().deleteFrom(LOAD_INTERVALS).where(LOAD_INTERVALS.INTERVAL_START.lt(utc(cutoff))).execute()
            + tx.dsl().deleteFrom(LOAD_DROPS).where(LOAD_DROPS.INTERVAL_START.lt(utc(cutoff))).execute()
            + tx.dsl().deleteFrom(LOAD_CLIENTS).where(LOAD_CLIENTS.LAST_REPORT.lt(utc(cutoff))).execute()));
  }
}
