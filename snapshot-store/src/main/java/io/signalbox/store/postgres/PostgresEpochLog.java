package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.EPOCHS;
import static io.signalbox.store.jooq.Tables.EPOCH_COUNTER;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.Fence;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.chain.ChainTip;
import io.signalbox.store.chain.EpochChain;
import io.signalbox.store.chain.FullEnvelopes;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epochs in {@code epochs}: appends (full rows and deltas), full copies, reads that rebuild an
 * envelope from its chain, statuses and pruning. Safe for several writers at once, in one process or
 * many: epochs come from the single {@code epoch_counter} row each append increments in its own
 * transaction.
 */
final class PostgresEpochLog {

  // Logs as the store, so logging configured for PostgresSnapshotStore still covers the epoch log.
  private static final Logger log = LoggerFactory.getLogger(PostgresSnapshotStore.class);

  private final DSLContext db;
  private final Clock clock;
  private final FullEnvelopes fullEnvelopes = new FullEnvelopes();
  private final Object tipLock = new Object();
  /** The chain this store is extending; guarded by tipLock. */
  private final ChainTip chain = new ChainTip();

  PostgresEpochLog(DSLContext db, Clock clock) {
    this.db = db;
    this.clock = clock;
  }

  <S> S append(EpochSealer<S> sealer) {
    return append(sealer, null).orElseThrow();
  }

  /** Thrown inside an append's transaction to roll it back when the fence no longer holds. */
  private static final class FencedOut extends RuntimeException {
    FencedOut() {
      super("fenced out", null, false, false);
    }
  }

  /** @param fence null for a standalone writer, which holds no lease */
  <S> Optional<S> append(EpochSealer<S> sealer, Fence fence) {
    long started = System.nanoTime();
    EpochChain.Link tip;
    synchronized (tipLock) {
      tip = chain.extensible();
    }
    Written<S> written;
    try {
      written = call("append epoch", () -> db.transactionResult(tx -> appendIn(tx.dsl(), sealer, fence, tip)));
    } catch (FencedOut e) {
      log.warn("not appending: replica {} no longer holds the lease with term {}", fence.replicaId(), fence.term());
      return Optional.empty();
    }
    synchronized (tipLock) {
      chain.appended(written.stored().link());
    }
    if (written.stored().full()) {
      fullEnvelopes.remember(written.stored().envelope(), written.stored().link().baseEpoch());
    }
    log.debug("Appended epoch {} ({}) in {} ms", written.stored().link().epoch(),
        written.stored().full() ? "full" : "delta", (System.nanoTime() - started) / 1_000_000);
    return Optional.of(written.sealed());
  }

  /**
   * Two statements and the commit (and the fence's check, among replicas): the counter, then the
   * row and its notification in one statement ({@link EpochStatements}). The delta is inserted only
   * if the tip's row is still stored, checked by that same statement; if it is gone (another writer
   * pruned it), the full envelope goes in its place.
   */
  private <S> Written<S> appendIn(DSLContext t, EpochSealer<S> sealer, Fence fence, EpochChain.Link tip) {
    // The row lock taken here is held until commit: a second writer waits, then reads our value.
    long epoch = t.connectionResult(EpochStatements::nextEpoch);
    if (fence != null && !PostgresLeadership.holds(t, fence)) {
      // Rolls the counter back too: the number is never used, and nothing was stored.
      throw new FencedOut();
    }
    S result = sealer.seal(epoch);
    long term = fence == null ? 0L : fence.term();
    EpochChain.Stored stored = EpochChain.choose(sealer, result, epoch, tip, () -> true);
    // prune() takes the counter row too, so the tip cannot vanish between the insert's check and
    // commit; and that statement, started after the counter's lock was ours, sees every prune
    // committed before it (READ COMMITTED takes a snapshot per statement). A checkpoint takes no
    // lock here and changes neither the tip's row nor its chain (base_epoch): it only adds a full
    // copy, which ChainTip.appended credits to this link after commit.
    EpochChain.Link onto = stored.full() ? null : tip;
    if (!t.connectionResult(c -> EpochStatements.insert(c, epoch, stored, onto, term, now()))) {
      EpochChain.Stored full = EpochChain.choose(sealer, result, epoch, null, () -> false);
      if (!t.connectionResult(c -> EpochStatements.insert(c, epoch, full, null, term, now()))) {
        throw new IllegalStateException("epoch " + epoch + " was not inserted");
      }
      return new Written<>(result, full);
    }
    return new Written<>(result, stored);
  }

  void release(int wave, long epoch) {
    call("release epoch " + epoch + " to wave " + wave, () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      int changed = t.execute("""
          INSERT INTO wave_releases (wave, epoch) VALUES (?, ?)
          ON CONFLICT (wave) DO UPDATE SET epoch = excluded.epoch WHERE wave_releases.epoch < excluded.epoch""",
          wave, epoch);
      if (changed > 0) {
        PostgresNotifications.notify(t, "release");
      }
      return changed;
    }));
  }

  java.util.Map<Integer, Long> releases() {
    return call("read wave releases", () -> {
      java.util.Map<Integer, Long> out = new java.util.TreeMap<>();
      db.fetch("SELECT wave, epoch FROM wave_releases").forEach(r -> out.put(r.get(0, Integer.class),
          r.get(1, Long.class)));
      return out;
    });
  }

  private record Written<S>(S sealed, EpochChain.Stored stored) {}

  boolean checkpointDue() {
    synchronized (tipLock) {
      return chain.checkpointDue();
    }
  }

  void checkpoint(SnapshotEnvelope full) {
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
      Optional<Long> base = call("write checkpoint of epoch " + epoch,
          () -> db.connectionResult(c -> EpochStatements.checkpoint(c, epoch, full.getContentHash(), bytes)));
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

  Optional<SnapshotEnvelope> latest() {
    return call("read latest epoch", () -> inSnapshot(t -> t.select(EPOCHS.EPOCH, EPOCHS.BASE_EPOCH).from(EPOCHS)
        .orderBy(EPOCHS.EPOCH.desc()).limit(1)
        .fetchOptional(r -> fullEnvelopes.load(r.value1(), r.value2(), rows(t)))));
  }

  Optional<SnapshotEnvelope> load(long epoch) {
    return call("load epoch " + epoch, () -> inSnapshot(t -> t.select(EPOCHS.BASE_EPOCH).from(EPOCHS)
        .where(EPOCHS.EPOCH.eq(epoch))
        .fetchOptional(r -> fullEnvelopes.load(epoch, r.value1(), rows(t)))));
  }

  List<SnapshotEnvelope> storedAfter(long epoch, int limit) {
    return call("read epochs after " + epoch, () -> db.connectionResult(c -> EpochStatements.after(c, epoch, limit)));
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
            .fetchSingle(r -> EpochStatements.parse(epoch, r.value1()));
      }

      @Override
      public NavigableMap<Long, SnapshotEnvelope> deltas(long base, long from, long to) {
        NavigableMap<Long, SnapshotEnvelope> rows = new TreeMap<>();
        t.select(EPOCHS.EPOCH, EPOCHS.ENVELOPE).from(EPOCHS)
            .where(EPOCHS.EPOCH.between(from, to)).and(EPOCHS.BASE_EPOCH.eq(base))
            .forEach(r -> rows.put(r.value1(), EpochStatements.parse(r.value1(), r.value2())));
        return rows;
      }
    };
  }

  List<EpochRecord> epochs(int limit, long beforeEpoch) {
    return call("list epochs", () -> db.connectionResult(c -> EpochStatements.records(c, limit, beforeEpoch)));
  }

  Optional<EpochRecord> newestWithStatus(EpochStatus status) {
    return call("find the newest " + status + " epoch",
        () -> db.connectionResult(c -> EpochStatements.newestWithStatus(c, status)));
  }

  Optional<EpochRecord> epoch(long epoch) {
    return call("read epoch " + epoch, () -> db.connectionResult(c -> EpochStatements.record(c, epoch)));
  }

  void setStatus(long epoch, EpochStatus status, String reason) {
    if (updateStatus("set status of epoch " + epoch, epoch, null, status, reason) == 0) {
      throw new IllegalArgumentException("no epoch " + epoch);
    }
  }

  boolean replaceStatus(long epoch, EpochStatus expected, EpochStatus status, String reason) {
    return updateStatus("replace status of epoch " + epoch, epoch, expected, status, reason) == 1;
  }

  private int updateStatus(String operation, long epoch, EpochStatus expected, EpochStatus status, String reason) {
    return call(operation, () -> db.connectionResult(c -> EpochStatements.setStatus(c, epoch, expected, status, reason)));
  }

  /** The highest epoch ever allocated (0 before the first); pruning never lowers it. */
  long lastEpoch() {
    return call("read last epoch", () -> db.connectionResult(EpochStatements::lastEpoch));
  }

  private static final int DELETE_ROWS = 1_000;

  /** As {@link SnapshotStore#prune}; the counter row keeps its value, so numbering survives pruning. */
  int prune(int keepLast, Set<Long> alsoKeep) {
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

  private OffsetDateTime now() {
    return utc(Instant.now(clock));
  }
}
