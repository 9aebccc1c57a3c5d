package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;

import io.signalbox.store.Fence;
import io.signalbox.store.Leadership;
import io.signalbox.store.ReplicaRecord;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The lease and the heartbeats in {@code leadership} and {@code replicas} (V7). Lease times are
 * {@code clock_timestamp()}: the database's clock at the statement, the one clock every replica
 * shares, and not the start of a transaction that may have waited for a lock.
 */
final class PostgresLeadership implements Leadership {

  private static final String ACQUIRE = """
      INSERT INTO leadership (id, leader_id, term, acquired_at, expires_at)
      VALUES (1, ?, 1, clock_timestamp(), clock_timestamp() + ? * interval '1 millisecond')
      ON CONFLICT (id) DO UPDATE SET
        term = CASE WHEN leadership.leader_id = excluded.leader_id AND leadership.expires_at > clock_timestamp()
                    THEN leadership.term ELSE leadership.term + 1 END,
        acquired_at = CASE WHEN leadership.leader_id = excluded.leader_id
                                AND leadership.expires_at > clock_timestamp()
                           THEN leadership.acquired_at ELSE clock_timestamp() END,
        leader_id = excluded.leader_id,
        expires_at = excluded.expires_at
      WHERE leadership.leader_id = excluded.leader_id OR leadership.expires_at <= clock_timestamp()
      RETURNING leader_id, term, expires_at""";

  private static final String CURRENT = "SELECT leader_id, term, expires_at FROM leadership WHERE id = 1";

  private final DSLContext db;

  PostgresLeadership(DSLContext db) {
    this.db = db;
  }

  /**
   * The fence, inside an append's transaction: the row is share-locked until commit, so a replica
   * taking the lease waits for this append rather than leading beside it.
   */
  static boolean holds(DSLContext t, Fence fence) {
    return t.fetchOptional("""
        SELECT 1 FROM leadership WHERE id = 1 AND leader_id = ? AND term = ? AND expires_at > clock_timestamp()
        FOR SHARE""", fence.replicaId(), fence.term()).isPresent();
  }

  @Override
  public Lease acquire(String replicaId, Duration leaseDuration) {
    return call("acquire the leader lease", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      Optional<Record> taken = t.fetchOptional(ACQUIRE, replicaId, leaseDuration.toMillis());
      return lease(taken.isPresent() ? taken.get() : t.fetchSingle(CURRENT));
    }));
  }

  @Override
  public boolean renew(String replicaId, long term, Duration leaseDuration) {
    return call("renew the leader lease", () -> db.execute("""
        UPDATE leadership SET expires_at = clock_timestamp() + ? * interval '1 millisecond'
        WHERE id = 1 AND leader_id = ? AND term = ? AND expires_at > clock_timestamp()""",
        leaseDuration.toMillis(), replicaId, term) == 1);
  }

  @Override
  public void release(String replicaId, long term) {
    call("release the leader lease", () -> db.execute("""
        UPDATE leadership SET expires_at = clock_timestamp()
        WHERE id = 1 AND leader_id = ? AND term = ? AND expires_at > clock_timestamp()""", replicaId, term));
  }

  @Override
  public Optional<Lease> current() {
    return call("read the leader lease", () -> db.fetchOptional(CURRENT).map(PostgresLeadership::lease));
  }

  @Override
  public void heartbeat(ReplicaRecord r) {
    call("record a replica heartbeat", () -> db.execute("""
        INSERT INTO replicas (replica_id, role, epoch, clients, started_at, last_seen, leader_view)
        VALUES (?, ?, ?, ?, CAST(? AS timestamptz), clock_timestamp(), ?)
        ON CONFLICT (replica_id) DO UPDATE SET role = excluded.role, epoch = excluded.epoch,
          clients = excluded.clients, started_at = excluded.started_at, last_seen = excluded.last_seen,
          leader_view = excluded.leader_view""",
        r.replicaId(), r.role(), r.epoch(), r.clients(), r.startedAt().toString(), r.leaderView()));
  }

  @Override
  public List<ReplicaRecord> replicas() {
    return call("list replicas", () -> db.fetch("""
        SELECT replica_id, role, epoch, clients, started_at, last_seen, leader_view FROM replicas
        ORDER BY last_seen DESC, replica_id""").map(r -> new ReplicaRecord(r.get(0, String.class),
        r.get(1, String.class), r.get(2, Long.class), r.get(3, Integer.class),
        r.get(4, OffsetDateTime.class).toInstant(), r.get(5, OffsetDateTime.class).toInstant(),
        r.get(6, String.class))));
  }

  @Override
  public int forgetReplicas(Duration olderThan) {
    return call("forget old replicas", () -> db.execute(
        "DELETE FROM replicas WHERE last_seen < clock_timestamp() - ? * interval '1 millisecond'",
        olderThan.toMillis()));
  }

  private static Lease lease(Record r) {
    return new Lease(r.get(0, String.class), r.get(1, Long.class), r.get(2, OffsetDateTime.class).toInstant());
  }
}
