package io.signalbox.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.ClientStatusStore;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.Fence;
import io.signalbox.store.IntentStore;
import io.signalbox.store.Leadership;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.LoadReportStore;
import io.signalbox.store.OverrideStore;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The epoch log in PostgreSQL. Safe for several writers at once, in one process or many: epochs
 * come from a single counter row that each {@link #append} increments inside its own transaction.
 *
 * <p>Each group of tables has its own class over the one pool: {@link PostgresEpochLog} (epochs),
 * {@link PostgresAuditTrail} (rejected candidates, audit log), {@link PostgresClientStatuses} (client
 * rows, NACK events), {@link PostgresOverrideStore}, {@link PostgresIntentStore} and {@link PostgresLeaseStore}.
 */
public final class PostgresSnapshotStore implements SnapshotStore {

  private final HikariDataSource pool;
  private final PostgresEpochLog epochLog;
  private final PostgresAuditTrail auditTrail;
  private final PostgresClientStatuses clients;
  private final PostgresOverrideStore overrides;
  private final PostgresIntentStore intent;
  private final PostgresLeaseStore leases;
  private final PostgresLoadReports loadReports;
  private final PostgresStreamHistory history;
  private final PostgresLeadership leadership;
  private final Runnable afterClose;
  private final String jdbcUrl;
  private final String user;
  private final String password;

  private PostgresSnapshotStore(HikariDataSource pool, Clock clock, Runnable afterClose, String jdbcUrl, String user,
      String password) {
    this.pool = pool;
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    DSLContext db = DSL.using(new PoolOrDirectDataSource(pool), SQLDialect.POSTGRES);
    this.epochLog = new PostgresEpochLog(db, clock);
    this.auditTrail = new PostgresAuditTrail(db);
    this.clients = new PostgresClientStatuses(db);
    this.overrides = new PostgresOverrideStore(db);
    this.intent = new PostgresIntentStore(db);
    this.leases = new PostgresLeaseStore(db);
    this.loadReports = new PostgresLoadReports(db);
    this.history = new PostgresStreamHistory(db);
    this.leadership = new PostgresLeadership(db);
    this.afterClose = afterClose;
  }

  /** Connects, migrates the schema to the newest version, and returns the store. */
  public static PostgresSnapshotStore open(String jdbcUrl, String user, String password, Clock clock) {
    return open(jdbcUrl, user, password, clock, () -> {});
  }

  /**
   * As {@link #open(String, String, String, Clock)}; {@code afterClose} runs once the pool is closed
   * ({@link io.signalbox.store.Stores} stops the embedded server it started there).
   */
  public static PostgresSnapshotStore open(
      String jdbcUrl, String user, String password, Clock clock, Runnable afterClose) {
    return new PostgresSnapshotStore(PostgresPool.open(jdbcUrl, user, password), clock, afterClose, jdbcUrl, user,
        password);
  }

  @Override
  public <S> S append(EpochSealer<S> sealer) {
    return epochLog.append(sealer);
  }

  @Override
  public <S> Optional<S> append(EpochSealer<S> sealer, Fence fence) {
    return epochLog.append(sealer, fence);
  }

  @Override
  public void release(int wave, long epoch) {
    epochLog.release(wave, epoch);
  }

  @Override
  public java.util.Map<Integer, Long> releases() {
    return epochLog.releases();
  }

  @Override
  public Leadership leadership() {
    return leadership;
  }

  @Override
  public AutoCloseable listen(Runnable onChange) {
    return PostgresNotifications.start(jdbcUrl, user, password, onChange);
  }

  @Override
  public boolean checkpointDue() {
    return epochLog.checkpointDue();
  }

  @Override
  public void checkpoint(SnapshotEnvelope full) {
    epochLog.checkpoint(full);
  }

  @Override
  public Optional<SnapshotEnvelope> latest() {
    return epochLog.latest();
  }

  @Override
  public Optional<SnapshotEnvelope> load(long epoch) {
    return epochLog.load(epoch);
  }

  @Override
  public List<SnapshotEnvelope> storedAfter(long epoch, int limit) {
    return epochLog.storedAfter(epoch, limit);
  }

  @Override
  public List<EpochRecord> epochs(int limit, long beforeEpoch) {
    return epochLog.epochs(limit, beforeEpoch);
  }

  @Override
  public Optional<EpochRecord> epoch(long epoch) {
    return epochLog.epoch(epoch);
  }

  @Override
  public Optional<EpochRecord> newestWithStatus(EpochStatus status) {
    return epochLog.newestWithStatus(status);
  }

  @Override
  public void setStatus(long epoch, EpochStatus status, String reason) {
    epochLog.setStatus(epoch, status, reason);
  }

  @Override
  public boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason) {
    return epochLog.replaceStatus(epoch, expected, status, reason);
  }

  /** {@inheritDoc} The highest epoch ever allocated: allocation commits with the epoch. */
  @Override
  public long lastEpoch() {
    return epochLog.lastEpoch();
  }

  /** {@inheritDoc} The counter row keeps its value, so numbering survives pruning. */
  @Override
  public int prune(int keepLast, Set<Long> alsoKeep) {
    return epochLog.prune(keepLast, alsoKeep);
  }

  @Override
  public void recordRejection(RejectedCandidate candidate) {
    auditTrail.recordRejection(candidate);
  }

  @Override
  public List<RejectedCandidate> rejections(int limit) {
    return auditTrail.rejections(limit);
  }

  @Override
  public void audit(AuditEntry entry) {
    auditTrail.audit(entry);
  }

  @Override
  public List<AuditEntry> auditLog(int limit) {
    return auditTrail.auditLog(limit);
  }

  @Override
  public ClientStatusStore clients() {
    return clients;
  }

  @Override
  public OverrideStore overrides() {
    return overrides;
  }

  @Override
  public IntentStore intent() {
    return intent;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public LoadReportStore loadReports() {
    return loadReports;
  }

  @Override
  public io.signalbox.store.StreamHistory history() {
    return history;
  }

  @Override
  public void close() {
    try {
      pool.close();
    } finally {
      afterClose.run();
    }
  }
}
