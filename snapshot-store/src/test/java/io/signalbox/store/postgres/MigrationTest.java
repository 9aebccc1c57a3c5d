package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.ChainSealer;
import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.StoredLease;
import io.signalbox.store.embedded.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MigrationTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  /**
   * The schema the previous release shipped. When a migration is added, this stays at the last
   * released version, so the upgrade test below exercises the new migration on old data.
   */
  private static final String PREVIOUS_RELEASE = "1";

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

  @Test
  void migratesAnEmptyDatabaseToTheNewestSchema() throws SQLException {
    String url = postgres.newDatabase();
    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.lastEpoch()).isZero();
    }

    assertThat(tables(url)).contains("epoch_counter", "epochs", "rejected_candidates", "audit_log",
        "overrides", "client_status", "nack_events", "registry_leases");
    assertThat(flyway(url).load().info().pending()).isEmpty();
  }

  @Test
  void theSchemaLineSaysWhatAStartDidFirstMigratedThenUpToDate() {
    String url = postgres.newDatabase();
    String newest = flyway(url).load().info().all()[flyway(url).load().info().all().length - 1].getVersion().toString();

    String first = PostgresPool.schemaLine(flyway(url).load().migrate());
    String again = PostgresPool.schemaLine(flyway(url).load().migrate());

    assertThat(first).isEqualTo("Store schema migrated from an empty database to version " + newest + " ("
        + flyway(url).load().info().applied().length + " migrations applied)");
    assertThat(again).isEqualTo("Store schema at version " + newest + ", up to date");
  }

  @Test
  void upgradesThePreviousReleasesSchemaKeepingItsData() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).target(PREVIOUS_RELEASE).load().migrate();
    SnapshotEnvelope stored = EnvelopeSealer.because("startup").seal(1);
    // Written as the previous release wrote it: plain SQL against its schema.
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      c.createStatement().execute("UPDATE epoch_counter SET last_epoch = 1");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO epochs (epoch, parent_epoch, created_at,"
          + " content_hash, envelope, status, reason, cause, provenance)"
          + " VALUES (1, 0, ?, 'hash-1', ?, 'SAFE', 'acked by all', 'startup', '{\"cause\":\"startup\"}'::jsonb)")) {
        insert.setObject(1, NOW.atOffset(ZoneOffset.UTC));
        insert.setBytes(2, stored.toByteArray());
        insert.execute();
      }
      c.createStatement().execute("INSERT INTO audit_log (at, actor, action, target, reason)"
          + " VALUES ('2025-06-01T12:00:00Z', 'alice', 'drain', 'greeter/10.0.0.1:8080', 'kernel upgrade')");
    }

    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.latest()).contains(stored);
      assertThat(store.epoch(1)).contains(
          new EpochRecord(1, 0, NOW, "hash-1", EpochStatus.SAFE, "acked by all", "startup"));
      assertThat(store.auditLog(10)).containsExactly(
          new AuditEntry(NOW, "alice", "drain", "greeter/10.0.0.1:8080", "kernel upgrade"));
      assertThat(store.append(EnvelopeSealer.because("after upgrade")).getEpoch()).isEqualTo(2);
    }
    assertThat(flyway(url).load().info().pending()).isEmpty();
  }

  @Test
  void fullEnvelopesWrittenBeforeDeltasLoadAsStoredAndNewEpochsChainOnTop() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).target("3").load().migrate();
    ChainSealer sealer = new ChainSealer().put(ChainSealer.CLUSTERS, "a", "a-1").endpoints("a", "10.0.0.1");
    SnapshotEnvelope old = sealer.seal(1);
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      c.createStatement().execute("UPDATE epoch_counter SET last_epoch = 1");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO epochs (epoch, parent_epoch, created_at,"
          + " content_hash, envelope, status, cause, provenance)"
          + " VALUES (1, 0, ?, 'hash-1', ?, 'ACTIVE', 'test', '{}'::jsonb)")) {
        insert.setObject(1, NOW.atOffset(ZoneOffset.UTC));
        insert.setBytes(2, old.toByteArray());
        insert.execute();
      }
    }

    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.latest()).contains(old);
      SnapshotEnvelope second = store.append(sealer.put(ChainSealer.CLUSTERS, "b", "b-1"));
      SnapshotEnvelope third = store.append(sealer.endpoints("a", "10.0.0.2"));

      assertThat(store.load(1)).contains(old);
      assertThat(store.load(2)).contains(second);
      assertThat(store.load(3)).contains(third);
    }
  }

  @Test
  void aChainOfDeltasWrittenBeforeFullCopiesLoadsAndTakesCheckpointsOnTopStoredUncompressed() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).target("4").load().migrate();
    ChainSealer sealer = new ChainSealer().put(ChainSealer.CLUSTERS, "a", "a-1").endpoints("a", "10.0.0.1");
    SnapshotEnvelope first = sealer.seal(1);
    SnapshotEnvelope second = sealer.put(ChainSealer.CLUSTERS, "b", "b-1").seal(2);
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      c.createStatement().execute("UPDATE epoch_counter SET last_epoch = 2");
      // As V4 wrote them: a full base row and a delta on it, both compressed by default.
      insertV4Row(c, first, first.getEpoch(), first);
      insertV4Row(c, second, first.getEpoch(), ChainSealer.diff(first, second));
    }

    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.load(1)).contains(first);
      assertThat(store.load(2)).contains(second);
      assertThat(store.latest()).contains(second);
      SnapshotEnvelope third = store.append(sealer.put(ChainSealer.CLUSTERS, "c", "c-1"));
      assertThat(store.load(3)).contains(third);
    }
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        ResultSet r = c.createStatement().executeQuery("SELECT attname, attstorage FROM pg_attribute"
            + " WHERE attrelid = 'epochs'::regclass AND attname IN ('envelope', 'full_envelope') ORDER BY attname")) {
      List<String> storage = new ArrayList<>();
      while (r.next()) {
        storage.add(r.getString(1) + "=" + r.getString(2));
      }
      assertThat(storage).containsExactly("envelope=e", "full_envelope=e");
    }
  }

  @Test
  void aLeasesCapacityMovesFromItsMetadataIntoItsOwnColumn() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).target("10").load().migrate();
    // As V10's release stored them: the capacity among the metadata under its reserved key.
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      insertV10Lease(c, "10.0.0.1", "{\"signalbox.io/capacity-rps\": \"250\", \"v\": \"2\"}");
      insertV10Lease(c, "10.0.0.2", "{\"v\": \"3\"}");
      insertV10Lease(c, "10.0.0.3", "{\"signalbox.io/capacity-rps\": \"1000000\"}");
      // Never written by that release (it stored checked values only), and read by it as no capacity.
      insertV10Lease(c, "10.0.0.4", "{\"signalbox.io/capacity-rps\": \"0\", \"v\": \"4\"}");
      insertV10Lease(c, "10.0.0.5", "{\"signalbox.io/capacity-rps\": \"lots\"}");
    }

    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.leases().all()).containsExactly(
          v10Lease("10.0.0.1", Map.of("v", "2"), 250),
          v10Lease("10.0.0.2", Map.of("v", "3"), null),
          v10Lease("10.0.0.3", Map.of(), 1_000_000),
          v10Lease("10.0.0.4", Map.of("v", "4"), null),
          v10Lease("10.0.0.5", Map.of(), null));
    }
    assertThat(flyway(url).load().info().pending()).isEmpty();
  }

  @Test
  void aLeaseStoredBeforeV15DeclaresNoHostnameHashKeyOrAdditionalAddress() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).target("12").load().migrate();
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      insertLease(c, "10.0.0.1", 100);
    }

    try (PostgresSnapshotStore store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      assertThat(store.leases().all()).extracting(StoredLease::address, StoredLease::capacityRps, StoredLease::naming)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("10.0.0.1", 100, StoredLease.Naming.NONE));
    }
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      // EndpointRules.MAX_HASH_KEY_LENGTH, and an array only: what no release would write stays out.
      assertThatThrownBy(() -> c.createStatement().execute("UPDATE registry_leases SET hash_key = repeat('k', 257)"))
          .hasMessageContaining("registry_leases_hash_key");
      assertThatThrownBy(() -> c.createStatement().execute(
          "UPDATE registry_leases SET additional_addresses = '{\"a\": 1}'::jsonb"))
          .hasMessageContaining("registry_leases_additional_addresses");
    }
  }

  /** validation's MIN_RPS and MAX_RPS (this module does not depend on validation). */
  private static final int MIN_RPS = 1;
  private static final int MAX_RPS = 1_000_000;

  @Test
  void theCapacityColumnRefusesWhatAdmissionRulesRefuse() throws SQLException {
    String url = postgres.newDatabase();
    flyway(url).load().migrate();
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      insertLease(c, "10.0.0.1", MIN_RPS);
      insertLease(c, "10.0.0.2", MAX_RPS);
      insertLease(c, "10.0.0.3", null);

      assertThatThrownBy(() -> insertLease(c, "10.0.0.4", MIN_RPS - 1))
          .hasMessageContaining("registry_leases_capacity_rps");
      assertThatThrownBy(() -> insertLease(c, "10.0.0.5", MAX_RPS + 1))
          .hasMessageContaining("registry_leases_capacity_rps");
    }
  }

  private static void insertV10Lease(Connection c, String address, String metadata) throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO registry_leases (cluster, address, port, zone,"
        + " weight, metadata, registered_by, created_at, expires_at) VALUES ('orders', ?, 8080, 'b', 4, ?::jsonb,"
        + " 'ci', ?, ?)")) {
      insert.setString(1, address);
      insert.setString(2, metadata);
      insert.setObject(3, NOW.atOffset(ZoneOffset.UTC));
      insert.setObject(4, NOW.plusSeconds(30).atOffset(ZoneOffset.UTC));
      insert.execute();
    }
  }

  private static StoredLease v10Lease(String address, Map<String, String> metadata, Integer capacityRps) {
    return new StoredLease("orders", address, 8080, "b", 4, metadata, "ci", NOW, NOW.plusSeconds(30), capacityRps);
  }

  private static void insertLease(Connection c, String address, Integer capacityRps) throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO registry_leases (cluster, address, port,"
        + " metadata, created_at, expires_at, capacity_rps) VALUES ('orders', ?, 8080, '{}'::jsonb, now(), now(), ?)")) {
      insert.setString(1, address);
      insert.setObject(2, capacityRps, java.sql.Types.INTEGER);
      insert.execute();
    }
  }

  private static void insertV4Row(Connection c, SnapshotEnvelope full, long base, SnapshotEnvelope stored)
      throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO epochs (epoch, parent_epoch, base_epoch,"
        + " created_at, content_hash, envelope, status, cause, provenance)"
        + " VALUES (?, ?, ?, ?, ?, ?, 'ACTIVE', 'test', '{}'::jsonb)")) {
      insert.setLong(1, full.getEpoch());
      insert.setLong(2, full.getParentEpoch());
      insert.setLong(3, base);
      insert.setObject(4, NOW.atOffset(ZoneOffset.UTC));
      insert.setString(5, full.getContentHash());
      insert.setBytes(6, stored.toByteArray());
      insert.execute();
    }
  }

  private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url) {
    return Flyway.configure().dataSource(url, postgres.user(), postgres.password()).locations("classpath:db/migration");
  }

  private static List<String> tables(String url) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        ResultSet r = c.createStatement().executeQuery(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
      while (r.next()) {
        tables.add(r.getString(1));
      }
    }
    return tables;
  }
}
