package io.signalbox.store;

import static io.signalbox.store.jooq.Tables.AUDIT_LOG;
import static io.signalbox.store.jooq.Tables.CLIENT_STATUS;
import static io.signalbox.store.jooq.Tables.EPOCHS;
import static io.signalbox.store.jooq.Tables.EPOCH_COUNTER;
import static io.signalbox.store.jooq.Tables.NACK_EVENTS;
import static io.signalbox.store.jooq.Tables.REJECTED_CANDIDATES;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.jooq.tables.records.ClientStatusRecord;
import io.signalbox.store.jooq.tables.records.NackEventsRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.JSON;
import org.jooq.Record7;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epoch log in PostgreSQL. Safe for several writers at once, in one process or many: epochs
 * come from a single counter row that each {@link #append} increments inside its own transaction.
 */
public final class PostgresSnapshotStore implements SnapshotStore {

  private static final Logger log = LoggerFactory.getLogger(PostgresSnapshotStore.class);

  private final HikariDataSource pool;
  private final DSLContext db;
  private final PostgresOverrideStore overrides;
  private final PostgresLeaseStore leases;
  private final Clock clock;
  private final Runnable afterClose;
  private final FullEnvelopes fullEnvelopes = new FullEnvelopes();
  private final Object tipLock = new Object();
  /** The chain this store is extending; guarded by tipLock. */
  private final ChainTip chain = new ChainTip();

  private PostgresSnapshotStore(HikariDataSource pool, Clock clock, Runnable afterClose) {
    this.pool = pool;
    this.db = DSL.using(pool, SQLDialect.POSTGRES);
    this.overrides = new PostgresOverrideStore(db);
    this.leases = new PostgresLeaseStore(db);
    this.clock = clock;
    this.afterClose = afterClose;
  }

  /** Connects, migrates the schema to the newest version, and returns the store. */
  public static PostgresSnapshotStore open(String jdbcUrl, String user, String password, Clock clock) {
    return open(jdbcUrl, user, password, clock, () -> {});
  }

  /** As {@link #open(String, String, String, Clock)}; {@code afterClose} runs once the pool is closed. */
  static PostgresSnapshotStore open(
      String jdbcUrl, String user, String password, Clock clock, Runnable afterClose) {
    HikariDataSource pool = new HikariDataSource(poolConfig(jdbcUrl, user, password));
    try {
      migrate(pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return new PostgresSnapshotStore(pool, clock, afterClose);
  }

  private static HikariConfig poolConfig(String jdbcUrl, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("signalbox-store");
    config.setJdbcUrl(jdbcUrl);
    if (user != null && !user.isEmpty()) {
      config.setUsername(user);
    }
    if (password != null && !password.isEmpty()) {
      config.setPassword(password);
    }
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    // A dead database must show up within seconds so the control plane says so and keeps serving
    // from memory, rather than blocking the reconciler for Hikari's default 30 s.
    config.setConnectionTimeout(2_000);
    config.setValidationTimeout(1_000);
    // Construct even when the server is down; Flyway's first connection reports it, wrapped.
    config.setInitializationFailTimeout(-1);
    config.addDataSourceProperty("connectTimeout", "2");
    config.addDataSourceProperty("socketTimeout", "30");
    config.addDataSourceProperty("tcpKeepAlive", "true");
    config.addDataSourceProperty("ApplicationName", "signalbox");
    return config;
  }

  private static void migrate(HikariDataSource pool) {
    try {
      var result = Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate();
      log.info("Store schema at version {} ({} migrations applied)", result.targetSchemaVersion,
          result.migrationsExecuted);
    } catch (FlywayException e) {
      throw new StoreUnavailableException("snapshot store unavailable (migrate schema): " + e.getMessage(), e);
    }
  }

  @Override
  public <S> S append(EpochSealer<S> sealer) {
    long started = System.nanoTime();
    EpochChain.Link tip;
    synchronized (tipLock) {
      tip = chain.extensible();
    }
    var written = call("append epoch", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      // The row lock taken here is held until commit: a second writer waits, then reads our value.
      long epoch = t.update(EPOCH_COUNTER)
          .set(EPOCH_COUNTER.LAST_EPOCH, EPOCH_COUNTER.LAST_EPOCH.plus(1))
          .where(EPOCH_COUNTER.ID.eq(1))
          .returningResult(EPOCH_COUNTER.LAST_EPOCH)
          .fetchSingle()
          .value1();
      S result = sealer.seal(epoch);
      // prune() takes the counter row too, so the tip cannot vanish between this check and commit.
      // A checkpoint takes no lock here and changes neither the tip's row nor its chain (base_epoch):
      // it only adds a full copy, which ChainTip.appended credits to this link after commit.
      EpochChain.Stored stored = EpochChain.choose(sealer, result, epoch, tip, () -> t.fetchExists(
          EPOCHS, EPOCHS.EPOCH.eq(tip.epoch()).and(EPOCHS.BASE_EPOCH.eq(tip.baseEpoch()))));
      SnapshotEnvelope envelope = stored.envelope();
      t.insertInto(EPOCHS)
          .set(EPOCHS.EPOCH, epoch)
          .set(EPOCHS.PARENT_EPOCH, envelope.getParentEpoch())
          .set(EPOCHS.BASE_EPOCH, stored.link().baseEpoch())
          .set(EPOCHS.CREATED_AT, now())
          .set(EPOCHS.CONTENT_HASH, envelope.getContentHash())
          .set(EPOCHS.ENVELOPE, envelope.toByteArray())
          .set(EPOCHS.STATUS, EpochStatus.ACTIVE.name())
          .set(EPOCHS.REASON, "")
          .set(EPOCHS.CAUSE, envelope.getProvenance().getCause())
          .set(EPOCHS.PROVENANCE, provenanceJson(envelope))
          .execute();
      return new Written<>(result, stored);
    }));
    synchronized (tipLock) {
      chain.appended(written.stored().link());
    }
    if (written.stored().full()) {
      fullEnvelopes.remember(written.stored().envelope(), written.stored().link().baseEpoch());
    }
    log.debug("Appended epoch {} ({}) in {} ms", written.stored().link().epoch(),
        written.stored().full() ? "full" : "delta", (System.nanoTime() - started) / 1_000_000);
    return written.sealed();
  }

  private record Written<S>(S sealed, EpochChain.Stored stored) {}

  @Override
  public boolean checkpointDue() {
    synchronized (tipLock) {
      return chain.checkpointDue();
    }
  }

  @Override
  public void checkpoint(SnapshotEnvelope full) {
    long started = System.nanoTime();
    EpochChain.checkCheckpoint(full);
    long epoch = full.getEpoch();
    synchronized (tipLock) {
      if (!chain.begin(epoch, full.getSerializedSize())) {
        return;
      }
    }
    try {
      byte[] bytes = full.toByteArray();
      // One statement, no counter lock: appends go on while the copy (megabytes) is written. The
      // row's delta envelope and base_epoch stay as they are, so an append that read the tip before
      // this commits still writes a valid delta; the hash guards against a copy of other content.
      Optional<Long> base = call("write checkpoint of epoch " + epoch, () -> db.update(EPOCHS)
          .set(EPOCHS.FULL_ENVELOPE, bytes)
          .where(EPOCHS.EPOCH.eq(epoch)
              .and(EPOCHS.CONTENT_HASH.eq(full.getContentHash()))
              .and(EPOCHS.FULL_ENVELOPE.isNull())
              .and(EPOCHS.BASE_EPOCH.ne(EPOCHS.EPOCH)))
          .returningResult(EPOCHS.BASE_EPOCH)
          .fetchOptional(r -> r.value1()));
      if (base.isEmpty()) {
        return;
      }
      synchronized (tipLock) {
        chain.checkpointed(epoch, bytes.length);
      }
      fullEnvelopes.remember(full, base.get());
      log.debug("Wrote a full copy of epoch {} ({} bytes) in {} ms", epoch, bytes.length,
          (System.nanoTime() - started) / 1_000_000);
    } finally {
      synchronized (tipLock) {
        chain.settled(epoch);
      }
    }
  }

  @Override
  public Optional<SnapshotEnvelope> latest() {
    return call("read latest epoch", () -> inSnapshot(t -> t.select(EPOCHS.EPOCH, EPOCHS.BASE_EPOCH).from(EPOCHS)
        .orderBy(EPOCHS.EPOCH.desc()).limit(1)
        .fetchOptional(r -> fullEnvelopes.load(r.value1(), r.value2(), rows(t)))));
  }

  @Override
  public Optional<SnapshotEnvelope> load(long epoch) {
    return call("load epoch " + epoch, () -> inSnapshot(t -> t.select(EPOCHS.BASE_EPOCH).from(EPOCHS)
        .where(EPOCHS.EPOCH.eq(epoch))
        .fetchOptional(r -> fullEnvelopes.load(epoch, r.value1(), rows(t)))));
  }

  /** Runs {@code read} in one REPEATABLE READ transaction: a chain read in several queries is consistent. */
  private <T> T inSnapshot(java.util.function.Function<DSLContext, T> read) {
    return db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      t.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      return read.apply(t);
    });
  }

  private static FullEnvelopes.Rows rows(DSLContext t) {
    return new FullEnvelopes.Rows() {
      @Override
      public long nearestFullCopy(long base, long epoch) {
        // Scans the primary key down from epoch and stops at the first match; reads no envelope.
        Long found = t.select(DSL.max(EPOCHS.EPOCH)).from(EPOCHS)
            .where(EPOCHS.BASE_EPOCH.eq(base)).and(EPOCHS.EPOCH.le(epoch))
            .and(EPOCHS.EPOCH.eq(EPOCHS.BASE_EPOCH).or(EPOCHS.FULL_ENVELOPE.isNotNull()))
            .fetchSingle().value1();
        return found == null ? -1 : found;
      }

      @Override
      public SnapshotEnvelope fullCopy(long epoch) {
        // A base row's envelope is full and it never gets a full_envelope; another row's is a delta.
        return t.select(DSL.coalesce(EPOCHS.FULL_ENVELOPE, EPOCHS.ENVELOPE)).from(EPOCHS)
            .where(EPOCHS.EPOCH.eq(epoch))
            .fetchSingle(r -> parse(epoch, r.value1()));
      }

      @Override
      public NavigableMap<Long, SnapshotEnvelope> deltas(long base, long from, long to) {
        NavigableMap<Long, SnapshotEnvelope> rows = new TreeMap<>();
        t.select(EPOCHS.EPOCH, EPOCHS.ENVELOPE).from(EPOCHS)
            .where(EPOCHS.EPOCH.between(from, to)).and(EPOCHS.BASE_EPOCH.eq(base))
            .forEach(r -> rows.put(r.value1(), parse(r.value1(), r.value2())));
        return rows;
      }
    };
  }

  @Override
  public List<EpochRecord> epochs(int limit, long beforeEpoch) {
    return call("list epochs", () -> db.select(EPOCHS.EPOCH, EPOCHS.PARENT_EPOCH, EPOCHS.CREATED_AT,
            EPOCHS.CONTENT_HASH, EPOCHS.STATUS, EPOCHS.REASON, EPOCHS.CAUSE)
        .from(EPOCHS)
        .where(EPOCHS.EPOCH.lt(beforeEpoch))
        .orderBy(EPOCHS.EPOCH.desc())
        .limit(limit)
        .fetch(PostgresSnapshotStore::toRecord));
  }

  @Override
  public Optional<EpochRecord> epoch(long epoch) {
    return call("read epoch " + epoch, () -> db.select(EPOCHS.EPOCH, EPOCHS.PARENT_EPOCH,
            EPOCHS.CREATED_AT, EPOCHS.CONTENT_HASH, EPOCHS.STATUS, EPOCHS.REASON, EPOCHS.CAUSE)
        .from(EPOCHS)
        .where(EPOCHS.EPOCH.eq(epoch))
        .fetchOptional(PostgresSnapshotStore::toRecord));
  }

  @Override
  public void setStatus(long epoch, EpochStatus status, String reason) {
    int updated = call("set status of epoch " + epoch, () -> db.update(EPOCHS)
        .set(EPOCHS.STATUS, status.name())
        .set(EPOCHS.REASON, reason == null ? "" : reason)
        .where(EPOCHS.EPOCH.eq(epoch))
        .execute());
    if (updated == 0) {
      throw new IllegalArgumentException("no epoch " + epoch);
    }
  }

  @Override
  public boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason) {
    return call("replace status of epoch " + epoch, () -> db.update(EPOCHS)
        .set(EPOCHS.STATUS, status.name())
        .set(EPOCHS.REASON, reason == null ? "" : reason)
        .where(EPOCHS.EPOCH.eq(epoch).and(EPOCHS.STATUS.eq(expected.name())))
        .execute()) == 1;
  }

  @Override
  public void recordRejection(RejectedCandidate candidate) {
    call("record rejected candidate", () -> db.insertInto(REJECTED_CANDIDATES)
        .set(REJECTED_CANDIDATES.AT, utc(candidate.at()))
        .set(REJECTED_CANDIDATES.CAUSE, candidate.cause())
        // RejectedCandidate renders each violation on one line, so lines round-trip exactly.
        .set(REJECTED_CANDIDATES.VIOLATIONS, String.join("\n", candidate.violations()))
        .execute());
  }

  @Override
  public List<RejectedCandidate> rejections(int limit) {
    return call("list rejected candidates", () -> db.selectFrom(REJECTED_CANDIDATES)
        .orderBy(REJECTED_CANDIDATES.ID.desc())
        .limit(limit)
        .fetch(r -> new RejectedCandidate(r.getAt().toInstant(), r.getCause(),
            r.getViolations().isEmpty() ? List.of() : Arrays.asList(r.getViolations().split("\n", -1)))));
  }

  @Override
  public void audit(AuditEntry entry) {
    call("write audit entry", () -> db.insertInto(AUDIT_LOG)
        .set(AUDIT_LOG.AT, utc(entry.at()))
        .set(AUDIT_LOG.ACTOR, entry.actor())
        .set(AUDIT_LOG.ACTION, entry.action())
        .set(AUDIT_LOG.TARGET, entry.target())
        .set(AUDIT_LOG.REASON, entry.reason() == null ? "" : entry.reason())
        .execute());
  }

  @Override
  public List<AuditEntry> auditLog(int limit) {
    return call("read audit log", () -> db.selectFrom(AUDIT_LOG)
        .orderBy(AUDIT_LOG.AT.desc(), AUDIT_LOG.ID.desc())
        .limit(limit)
        .fetch(r -> new AuditEntry(r.getAt().toInstant(), r.getActor(), r.getAction(), r.getTarget(),
            r.getReason())));
  }

  @Override
  public void saveClientStatuses(List<ClientRecord> records) {
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

  @Override
  public List<ClientRecord> clientStatuses() {
    return call("read client statuses", () -> db.selectFrom(CLIENT_STATUS)
        // Same order as InMemorySnapshotStore; "C" so strings sort as Java compares them.
        .orderBy(CLIENT_STATUS.LAST_SEEN_AT.desc(), CLIENT_STATUS.REPLICA.collate("C"),
            CLIENT_STATUS.NODE_ID.collate("C"), CLIENT_STATUS.STREAM_ID, CLIENT_STATUS.TYPE_URL.collate("C"))
        .fetch(PostgresSnapshotStore::toClientRecord));
  }

  private static ClientRecord toClientRecord(ClientStatusRecord r) {
    ClientRecord.LastNack nack = r.getNackAt() == null ? null
        : new ClientRecord.LastNack(r.getNackEpoch(), r.getNackMessage(), r.getNackAt().toInstant());
    return new ClientRecord(
        new ClientRecord.Key(r.getReplica(), r.getNodeId(), r.getStreamId(), r.getTypeUrl()),
        r.getNodeCluster(), r.getZone(), r.getUserAgent(),
        new ClientRecord.Position(r.getSentVersion(), r.getSentEpoch(), instantOrNull(r.getSentAt()),
            r.getAckedVersion(), r.getAckedEpoch(), instantOrNull(r.getAckedAt()), r.getSyncedEpoch()),
        nack, r.getNacks(), r.getLastSeenAt().toInstant(), r.getConnected());
  }

  @Override
  public int disconnectClients() {
    return call("mark clients disconnected", () -> db.update(CLIENT_STATUS)
        .set(CLIENT_STATUS.CONNECTED, false)
        .where(CLIENT_STATUS.CONNECTED.isTrue())
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
  public List<NackEvent> nackEvents(int limit) {
    return call("read NACK events", () -> nackEvents(DSL.trueCondition(), limit));
  }

  @Override
  public List<NackEvent> nackEvents(long snapshotEpoch) {
    return call("read NACK events of epoch " + snapshotEpoch,
        () -> nackEvents(NACK_EVENTS.SNAPSHOT_EPOCH.eq(snapshotEpoch), Integer.MAX_VALUE));
  }

  private List<NackEvent> nackEvents(Condition where, int limit) {
    return db.selectFrom(NACK_EVENTS).where(where).orderBy(NACK_EVENTS.ID.desc()).limit(limit)
        .fetch(PostgresSnapshotStore::toNackEvent);
  }

  private static NackEvent toNackEvent(NackEventsRecord r) {
    return new NackEvent(new ClientRecord.Key(r.getReplica(), r.getNodeId(), r.getStreamId(), r.getTypeUrl()),
        r.getNodeCluster(), r.getAt().toInstant(), r.getEpoch(), r.getSnapshotEpoch(), r.getMessage(),
        r.getResources().isEmpty() ? List.of() : Arrays.asList(r.getResources().split("\n", -1)));
  }

  /** The highest epoch ever allocated (0 before the first); pruning never lowers it. */
  public long lastEpoch() {
    return call("read last epoch", () -> db.select(EPOCH_COUNTER.LAST_EPOCH).from(EPOCH_COUNTER)
        .where(EPOCH_COUNTER.ID.eq(1)).fetchSingle().value1());
  }

  private static final int DELETE_ROWS = 1_000;

  /** {@inheritDoc} The counter row keeps its value, so numbering survives pruning. */
  @Override
  public int prune(int keepLast, Set<Long> alsoKeep) {
    if (keepLast < 1) {
      throw new IllegalArgumentException("keepLast must be at least 1 (the newest epoch is what a restart serves), was "
          + keepLast);
    }
    int deleted = call("prune epochs", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      // Appends hold this row until they commit: none can write a delta on a row deleted here.
      t.selectFrom(EPOCH_COUNTER).where(EPOCH_COUNTER.ID.eq(1)).forUpdate().fetch();
      // A checkpoint committing after this read only adds a full copy: the rows kept are then more
      // than needed, never fewer.
      List<EpochChain.Row> rows = t.select(EPOCHS.EPOCH, EPOCHS.PARENT_EPOCH, EPOCHS.BASE_EPOCH,
              DSL.field(EPOCHS.FULL_ENVELOPE.isNotNull())).from(EPOCHS)
          .fetch(r -> new EpochChain.Row(r.value1(), r.value2(), r.value3(), r.value4()));
      Set<Long> kept = EpochChain.retained(rows, keepLast, alsoKeep);
      List<Long> doomed = rows.stream().map(EpochChain.Row::epoch).filter(e -> !kept.contains(e)).toList();
      int count = 0;
      for (int from = 0; from < doomed.size(); from += DELETE_ROWS) {
        count += t.deleteFrom(EPOCHS)
            .where(EPOCHS.EPOCH.in(doomed.subList(from, Math.min(doomed.size(), from + DELETE_ROWS))))
            .execute();
      }
      return count;
    }));
    log.info("Pruned {} epochs (kept the newest {}, {} and the rows their deltas need)", deleted, keepLast,
        alsoKeep);
    return deleted;
  }

  @Override
  public OverrideStore overrides() {
    return overrides;
  }

  @Override
  public LeaseStore leases() {
    return leases;
  }

  @Override
  public void close() {
    try {
      pool.close();
    } finally {
      afterClose.run();
    }
  }

  /** Wraps every database failure once, naming what was being done; other exceptions pass through. */
  private static <T> T call(String operation, Supplier<T> work) {
    try {
      return work.get();
    } catch (DataAccessException e) {
      throw new StoreUnavailableException(
          "snapshot store unavailable (" + operation + "): " + e.getMessage(), e);
    }
  }

  private OffsetDateTime now() {
    return utc(Instant.now(clock));
  }

  private static OffsetDateTime utc(Instant at) {
    return at.atOffset(ZoneOffset.UTC);
  }

  private static OffsetDateTime utcOrNull(Instant at) {
    return at == null ? null : utc(at);
  }

  private static Instant instantOrNull(OffsetDateTime at) {
    return at == null ? null : at.toInstant();
  }

  private static JSON provenanceJson(SnapshotEnvelope envelope) {
    try {
      return JSON.valueOf(JsonFormat.printer().omittingInsignificantWhitespace().print(envelope.getProvenance()));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("epoch " + envelope.getEpoch() + ": provenance cannot be rendered as JSON", e);
    }
  }

  private static SnapshotEnvelope parse(long epoch, byte[] bytes) {
    try {
      return SnapshotEnvelope.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("epoch " + epoch + ": stored envelope is not a SnapshotEnvelope", e);
    }
  }

  private static EpochRecord toRecord(Record7<Long, Long, OffsetDateTime, String, String, String, String> r) {
    return new EpochRecord(r.value1(), r.value2(), r.value3().toInstant(), r.value4(),
        EpochStatus.valueOf(r.value5()), r.value6(), r.value7());
  }
}
