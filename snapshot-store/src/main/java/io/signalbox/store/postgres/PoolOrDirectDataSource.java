package io.signalbox.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The store's connections: from the pool while it has any, straight from the driver while it has
 * none.
 *
 * <p>While the database is down, Hikari keeps trying to add a connection and sleeps twice as long
 * after each failure, up to 5 s; once the database is back, the pool's first connection can be
 * that far off, and every caller meanwhile waits out the 2 s connection timeout and fails. With
 * the reconciler retrying every second, publishing resumed up to about 6 s after the database
 * returned ({@code StoreOutageDrillIT}; the contract is 5 s). A pool with no connection at all is
 * a pool in an outage or just after one: then each caller connects itself, which fails at once
 * while the server refuses connections and succeeds as soon as it accepts them. The pool refills
 * on its own schedule and takes over. Direct connections are closed, not pooled, when released.
 */
final class PoolOrDirectDataSource implements DataSource {

  private final HikariDataSource pool;
  private final String jdbcUrl;
  private final Properties properties;

  /** Connects directly as the pool does: its URL, user, password and driver properties. */
  PoolOrDirectDataSource(HikariDataSource pool) {
    this.pool = pool;
    this.jdbcUrl = pool.getJdbcUrl();
    this.properties = (Properties) pool.getDataSourceProperties().clone();
    if (pool.getUsername() != null) {
      properties.setProperty("user", pool.getUsername());
    }
    if (pool.getPassword() != null) {
      properties.setProperty("password", pool.getPassword());
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    HikariPoolMXBean state = pool.getHikariPoolMXBean();
    if (state != null && state.getTotalConnections() == 0) {
      return DriverManager.getConnection(jdbcUrl, properties);
    }
    return pool.getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the store connects as its configured user");
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return pool.isWrapperFor(iface);
  }
}
