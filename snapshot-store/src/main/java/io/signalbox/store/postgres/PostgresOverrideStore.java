package io.signalbox.store.postgres;

import static io.signalbox.store.postgres.DatabaseCall.call;
import static io.signalbox.store.postgres.UtcTimestamps.instantOrNull;
import static io.signalbox.store.postgres.UtcTimestamps.utc;
import static io.signalbox.store.postgres.UtcTimestamps.utcOrNull;
import static io.signalbox.store.jooq.Tables.OVERRIDES;

import io.signalbox.store.OverrideStore;
import io.signalbox.store.StoredOverride;
import io.signalbox.store.jooq.tables.records.OverridesRecord;
import java.util.List;
import org.jooq.DSLContext;

/** Overrides in the {@code overrides} table. */
final class PostgresOverrideStore implements OverrideStore {

  private final DSLContext db;

  PostgresOverrideStore(DSLContext db) {
    this.db = db;
  }

  @Override
  public List<StoredOverride> active() {
    return call("list overrides", () -> db.selectFrom(OVERRIDES).where(OVERRIDES.ACTIVE.isTrue())
        .orderBy(OVERRIDES.ID).fetch(PostgresOverrideStore::toOverride));
  }

  @Override
  public void put(StoredOverride o) {
    call("store an override", () -> db.transactionResult(tx -> {
      DSLContext t = tx.dsl();
      deactivate(t, o.cluster(), o.address(), o.port(), o.kind());
      PostgresIntentStore.bumpRevision(t);
      return t.insertInto(OVERRIDES)
          .set(OVERRIDES.CLUSTER, o.cluster())
          .set(OVERRIDES.ADDRESS, o.address())
          .set(OVERRIDES.PORT, o.port())
          .set(OVERRIDES.KIND, o.kind())
          .set(OVERRIDES.VALUE, o.value())
          .set(OVERRIDES.ACTOR, o.actor())
          .set(OVERRIDES.REASON, o.reason())
          .set(OVERRIDES.CREATED_AT, utc(o.createdAt()))
          .set(OVERRIDES.DEADLINE, utcOrNull(o.deadline()))
          .set(OVERRIDES.ACTIVE, true)
          .execute();
    }));
  }

  @Override
  public boolean remove(String cluster, String address, int port, String kind) {
    return call("remove an override", () -> db.transactionResult(tx -> {
      boolean removed = deactivate(tx.dsl(), cluster, address, port, kind) > 0;
      if (removed) {
        PostgresIntentStore.bumpRevision(tx.dsl());
      }
      return removed;
    }));
  }

  @Override
  public int count(String cluster, String address, int port, String kind) {
    return call("count overrides", () -> db.fetchCount(OVERRIDES, OVERRIDES.CLUSTER.eq(cluster)
        .and(OVERRIDES.ADDRESS.eq(address)).and(OVERRIDES.PORT.eq(port)).and(OVERRIDES.KIND.eq(kind))));
  }

  private static int deactivate(DSLContext t, String cluster, String address, int port, String kind) {
    return t.update(OVERRIDES).set(OVERRIDES.ACTIVE, false)
        .where(OVERRIDES.ACTIVE.isTrue()).and(OVERRIDES.CLUSTER.eq(cluster)).and(OVERRIDES.ADDRESS.eq(address))
        .and(OVERRIDES.PORT.eq(port)).and(OVERRIDES.KIND.eq(kind))
        .execute();
  }

  private static StoredOverride toOverride(OverridesRecord r) {
    return new StoredOverride(r.getCluster(), r.getAddress(), r.getPort(), r.getKind(), r.getValue(), r.getActor(),
        r.getReason(), r.getCreatedAt().toInstant(), instantOrNull(r.getDeadline()));
  }
}
