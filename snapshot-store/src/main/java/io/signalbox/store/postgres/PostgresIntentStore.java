package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.jooq.Tables.EJECTION_FREEZE;
import static io.signalbox.store.jooq.Tables.OPERATOR_DROPS;
import static io.signalbox.store.jooq.Tables.PUBLISH_FREEZE;
import static io.signalbox.store.jooq.Tables.HELD_CONFIRMATIONS;
import static io.signalbox.store.jooq.Tables.INTENT_REVISION;
import static io.signalbox.store.jooq.Tables.OVERRIDES;
import static io.signalbox.store.jooq.Tables.QUARANTINE;

import io.signalbox.store.IntentStore;
import io.signalbox.store.StoredIntent;
import io.signalbox.store.StoredOverride;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Intent in the {@code publish_freeze}, {@code quarantine} and {@code held_confirmations} tables (V6)
 * and the {@code ejection_freeze} and {@code operator_drops} tables (V10).
 */
final class PostgresIntentStore implements IntentStore {

  private static final int ONLY_ROW = 1;

  private final DSLContext db;

  PostgresIntentStore(DSLContext db) {
    this.db = db;
  }

  /** Called inside every transaction that changes the intent or the overrides. */
  static void bumpRevision(DSLContext t) {
    t.update(INTENT_REVISION).set(INTENT_REVISION.REVISION, INTENT_REVISION.REVISION.plus(1))
        .where(INTENT_REVISION.ID.eq(ONLY_ROW)).execute();
    PostgresNotifications.notify(t, "intent");
  }

  @Override
  public StoredIntent read() {
    // One transaction, so the parts are from one moment: a rollback's quarantine and the freeze an
    // operator set a millisecond later are either both seen or the freeze is not.
    return call("read operator intent", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      t.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      long revision = t.select(INTENT_REVISION.REVISION).from(INTENT_REVISION).fetchSingle().value1();
      StoredIntent.Freeze freeze = t.selectFrom(PUBLISH_FREEZE).fetchOptional()
          .map(r -> new StoredIntent.Freeze(r.getActor(), r.getReason(), r.getFrozenAt().toInstant())).orElse(null);
      List<StoredIntent.Quarantined> quarantine = t.selectFrom(QUARANTINE)
          .orderBy(QUARANTINE.CREATED_AT, QUARANTINE.TYPE, QUARANTINE.NAME)
          .fetch(r -> new StoredIntent.Quarantined(r.getType(), r.getName(), r.getRejectedVersion(),
              r.getRestoreEpoch(), r.getReason(), r.getActor(), r.getCreatedAt().toInstant()));
      List<StoredIntent.Confirmation> confirmations = t.selectFrom(HELD_CONFIRMATIONS)
          .orderBy(HELD_CONFIRMATIONS.CLUSTER)
          .fetch(r -> new StoredIntent.Confirmation(r.getCluster(), r.getFingerprint(), r.getActor(),
              r.getConfirmedAt().toInstant()));
      List<StoredOverride> overrides = new PostgresOverrideStore(t).active();
      Map<String, Integer> ejections = new HashMap<>();
      t.select(OVERRIDES.CLUSTER, OVERRIDES.ADDRESS, OVERRIDES.PORT, DSL.count())
          .from(OVERRIDES).where(OVERRIDES.KIND.eq("eject"))
          .groupBy(OVERRIDES.CLUSTER, OVERRIDES.ADDRESS, OVERRIDES.PORT)
          .forEach(r -> ejections.put(StoredIntent.endpointKey(r.value1(), r.value2(), r.value3()), r.value4()));
      StoredIntent.Freeze ejectionFreeze = t.selectFrom(EJECTION_FREEZE).fetchOptional()
          .map(r -> new StoredIntent.Freeze(r.getActor(), r.getReason(), r.getFrozenAt().toInstant())).orElse(null);
      List<StoredIntent.Drop> drops = t.selectFrom(OPERATOR_DROPS)
          .orderBy(OPERATOR_DROPS.CLUSTER, OPERATOR_DROPS.CREATED_AT, OPERATOR_DROPS.CATEGORY)
          .fetch(r -> new StoredIntent.Drop(r.getCluster(), r.getCategory(), r.getPerMillion(), r.getActor(),
              r.getReason(), r.getCreatedAt().toInstant()));
      return new StoredIntent(freeze, quarantine, confirmations, overrides, ejections, ejectionFreeze, drops,
          revision);
    }));
  }

  @Override
  public void freeze(StoredIntent.Freeze f) {
    call("store the freeze", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      t.insertInto(PUBLISH_FREEZE)
          .set(PUBLISH_FREEZE.ID, ONLY_ROW).set(PUBLISH_FREEZE.ACTOR, f.actor())
          .set(PUBLISH_FREEZE.REASON, f.reason())
          .set(PUBLISH_FREEZE.FROZEN_AT, utc(f.at()))
          .onConflict(PUBLISH_FREEZE.ID).doUpdate()
          .set(PUBLISH_FREEZE.ACTOR, f.actor()).set(PUBLISH_FREEZE.REASON, f.reason())
          .set(PUBLISH_FREEZE.FROZEN_AT, utc(f.at()))
          .execute();
      bumpRevision(t);
      return null;
    }));
  }

  @Override
  public boolean unfreeze() {
    return call("lift the freeze", () -> db.transactionResult(tx -> changed(tx.dsl(),
        tx.dsl().deleteFrom(PUBLISH_FREEZE).where(PUBLISH_FREEZE.ID.eq(ONLY_ROW)).execute())));
  }

  @Override
  public void quarantine(List<StoredIntent.Quarantined> entries) {
    call("store quarantined resources", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      for (StoredIntent.Quarantined q : entries) {
        t.insertInto(QUARANTINE)
            .set(QUARANTINE.TYPE, q.type()).set(QUARANTINE.NAME, q.name())
            .set(QUARANTINE.REJECTED_VERSION, q.rejectedVersion()).set(QUARANTINE.RESTORE_EPOCH, q.restoreEpoch())
            .set(QUARANTINE.REASON, q.reason()).set(QUARANTINE.ACTOR, q.actor())
            .set(QUARANTINE.CREATED_AT, utc(q.at()))
            .onConflict(QUARANTINE.TYPE, QUARANTINE.NAME).doUpdate()
            .set(QUARANTINE.REJECTED_VERSION, q.rejectedVersion()).set(QUARANTINE.RESTORE_EPOCH, q.restoreEpoch())
            .set(QUARANTINE.REASON, q.reason()).set(QUARANTINE.ACTOR, q.actor())
            .set(QUARANTINE.CREATED_AT, utc(q.at()))
            .execute();
      }
      bumpRevision(t);
      return null;
    }));
  }

  @Override
  public boolean lift(String type, String name, String rejectedVersion) {
    return call("lift a quarantined resource", () -> db.transactionResult(tx -> changed(tx.dsl(),
        tx.dsl().deleteFrom(QUARANTINE).where(QUARANTINE.TYPE.eq(type)).and(QUARANTINE.NAME.eq(name))
            .and(QUARANTINE.REJECTED_VERSION.eq(rejectedVersion)).execute())));
  }

  @Override
  public void confirm(StoredIntent.Confirmation c) {
    call("store a confirmation", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      t.insertInto(HELD_CONFIRMATIONS)
          .set(HELD_CONFIRMATIONS.CLUSTER, c.cluster()).set(HELD_CONFIRMATIONS.FINGERPRINT, c.fingerprint())
          .set(HELD_CONFIRMATIONS.ACTOR, c.actor()).set(HELD_CONFIRMATIONS.CONFIRMED_AT, utc(c.at()))
          .onConflict(HELD_CONFIRMATIONS.CLUSTER).doUpdate()
          .set(HELD_CONFIRMATIONS.FINGERPRINT, c.fingerprint()).set(HELD_CONFIRMATIONS.ACTOR, c.actor())
          .set(HELD_CONFIRMATIONS.CONFIRMED_AT, utc(c.at()))
          .execute();
      bumpRevision(t);
      return null;
    }));
  }

  @Override
  public boolean clearConfirmation(String cluster) {
    return call("clear a confirmation", () -> db.transactionResult(tx -> changed(tx.dsl(),
        tx.dsl().deleteFrom(HELD_CONFIRMATIONS).where(HELD_CONFIRMATIONS.CLUSTER.eq(cluster)).execute())));
  }

  @Override
  public void freezeEjections(StoredIntent.Freeze f) {
    call("store the freeze of ejections", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      t.insertInto(EJECTION_FREEZE)
          .set(EJECTION_FREEZE.ID, ONLY_ROW).set(EJECTION_FREEZE.ACTOR, f.actor())
          .set(EJECTION_FREEZE.REASON, f.reason())
          .set(EJECTION_FREEZE.FROZEN_AT, utc(f.at()))
          .onConflict(EJECTION_FREEZE.ID).doUpdate()
          .set(EJECTION_FREEZE.ACTOR, f.actor()).set(EJECTION_FREEZE.REASON, f.reason())
          .set(EJECTION_FREEZE.FROZEN_AT, utc(f.at()))
          .execute();
      bumpRevision(t);
      return null;
    }));
  }

  @Override
  public boolean unfreezeEjections() {
    return call("lift the freeze of ejections", () -> db.transactionResult(tx -> changed(tx.dsl(),
        tx.dsl().deleteFrom(EJECTION_FREEZE).where(EJECTION_FREEZE.ID.eq(ONLY_ROW)).execute())));
  }

  @Override
  public void drop(StoredIntent.Drop d) {
    call("store a drop", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      // created_at is kept on replace: it is the drop's place in the order clients apply them.
      t.insertInto(OPERATOR_DROPS)
          .set(OPERATOR_DROPS.CLUSTER, d.cluster()).set(OPERATOR_DROPS.CATEGORY, d.category())
          .set(OPERATOR_DROPS.PER_MILLION, d.perMillion()).set(OPERATOR_DROPS.ACTOR, d.actor())
          .set(OPERATOR_DROPS.REASON, d.reason()).set(OPERATOR_DROPS.CREATED_AT, utc(d.at()))
          .onConflict(OPERATOR_DROPS.CLUSTER, OPERATOR_DROPS.CATEGORY).doUpdate()
          .set(OPERATOR_DROPS.PER_MILLION, d.perMillion()).set(OPERATOR_DROPS.ACTOR, d.actor())
          .set(OPERATOR_DROPS.REASON, d.reason())
          .execute();
      bumpRevision(t);
      return null;
    }));
  }

  @Override
  public int undrop(String cluster, String category) {
    return call("delete drops", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      int rows = t.deleteFrom(OPERATOR_DROPS).where(OPERATOR_DROPS.CLUSTER.eq(cluster))
          .and(category == null ? DSL.noCondition() : OPERATOR_DROPS.CATEGORY.eq(category)).execute();
      changed(t, rows);
      return rows;
    }));
  }

  @Override
  public long revision() {
    // Every replica reads this after each notification and twice a second: SQL written once, not
    // rendered by jOOQ each time.
    return call("read the intent revision", () -> db.connectionResult(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT revision FROM intent_revision");
          ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new IllegalStateException("intent_revision has no row");
        }
        return r.getLong(1);
      }
    }));
  }

  private static boolean changed(DSLContext t, int rows) {
    if (rows == 0) {
      return false;
    }
    bumpRevision(t);
    return true;
  }
}
