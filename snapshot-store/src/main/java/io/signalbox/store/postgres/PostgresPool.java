package io.signalbox.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.signalbox.store.StoreUnavailableException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The connection pool the PostgreSQL store runs on, opened with the schema at its newest version. */
final class PostgresPool {

  // Logs as the store it opens, so logging configured for PostgresSnapshotStore still covers it.
  private static final Logger log = LoggerFactory.getLogger(PostgresSnapshotStore.class);

  private PostgresPool() {}

  /** Opens a pool and migrates the schema; a pool whose migration fails is closed before the throw. */
  static HikariDataSource open(String jdbcUrl, String user, String password) {
    HikariDataSource pool = new HikariDataSource(config(jdbcUrl, user, password));
    try {
      migrate(pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return pool;
  }

  private static HikariConfig config(String jdbcUrl, String user, String password) {
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
    // A replica stopped (SIGSTOP, a long pause) inside a transaction would hold its row locks, and
    // with them the epoch counter and the lease, until it resumes: the server ends such a
    // transaction instead. Signalbox's own transactions are never idle this long.
    config.setConnectionInitSql("SET idle_in_transaction_session_timeout = '10s'");
    return config;
  }

  /**
   * What a migration did, in words that hold on every start: Flyway leaves the target version null
   * when nothing was applied, which read "Store schema at version null (0 migrations applied)".
   */
  static String schemaLine(MigrateResult result) {
    if (result.migrationsExecuted == 0) {
      return "Store schema at version " + result.initialSchemaVersion + ", up to date";
    }
    return "Store schema migrated from " + (result.initialSchemaVersion == null ? "an empty database"
        : "version " + result.initialSchemaVersion) + " to version " + result.targetSchemaVersion + " ("
        + result.migrationsExecuted + " migration" + (result.migrationsExecuted == 1 ? "" : "s") + " applied)";
  }

  private static void migrate(HikariDataSource pool) {
    try {
      log.info(schemaLine(Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate()));
    } catch (FlywayException e) {
      throw new StoreUnavailableException("snapshot store unavailable (migrate schema): " + e.getMessage(), e);
    }
  }
}
