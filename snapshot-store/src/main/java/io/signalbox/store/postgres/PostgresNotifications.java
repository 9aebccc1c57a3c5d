package io.signalbox.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.jooq.DSLContext;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code LISTEN} on a dedicated connection, outside the pool: a follower learns of a new epoch, a
 * wave release or an intent change within milliseconds of its commit. Only a hint: notifications
 * sent while the listener reconnects are lost, so it also fires after every (re)connect, and
 * callers poll as well. Behind a transaction pooler (PgBouncer) {@code LISTEN} does not work; point
 * this connection at PostgreSQL directly (docs/ha.md).
 */
final class PostgresNotifications implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PostgresNotifications.class);
  static final String CHANNEL = "signalbox_changes";

  private final String jdbcUrl;
  private final Properties credentials;
  private final Runnable onChange;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Connection connection;

  private PostgresNotifications(String jdbcUrl, Properties credentials, Runnable onChange) {
    this.jdbcUrl = jdbcUrl;
    this.credentials = credentials;
    this.onChange = onChange;
    this.thread = new com.google.common.util.concurrent.ThreadFactoryBuilder().setNameFormat("store-listen").setDaemon(true).build().newThread(this::run);
  }

  static PostgresNotifications start(String jdbcUrl, String user, String password, Runnable onChange) {
    Properties credentials = new Properties();
    if (user != null && !user.isEmpty()) {
      credentials.setProperty("user", user);
    }
    if (password != null && !password.isEmpty()) {
      credentials.setProperty("password", password);
    }
    credentials.setProperty("ApplicationName", "signalbox-listen");
    credentials.setProperty("connectTimeout", "2");
    credentials.setProperty("tcpKeepAlive", "true");
    PostgresNotifications n = new PostgresNotifications(jdbcUrl, credentials, onChange);
    n.thread.start();
    return n;
  }

  /** Inside a transaction: tells every listener, on commit, that {@code what} changed. */
  static void notify(DSLContext t, String what) {
    // Payloads stay far under PostgreSQL's 8000-byte limit: a word, never a resource.
    t.fetch("SELECT pg_notify(?, ?)", CHANNEL, what);
  }

  private void run() {
    long backoff = 250;
    while (running) {
      try (Connection c = DriverManager.getConnection(jdbcUrl, credentials)) {
        connection = c;
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + CHANNEL);
        }
        backoff = 250;
        // Whatever was committed while this connection was down was not heard: look now.
        onChange.run();
        PGConnection pg = c.unwrap(PGConnection.class);
        while (running) {
          var notifications = pg.getNotifications(1000);
          if (notifications != null && notifications.length > 0) {
            onChange.run();
          }
        }
      } catch (SQLException e) {
        if (!running) {
          return;
        }
        log.debug("store listener disconnected ({}); reconnecting in {} ms", e.getMessage(), backoff);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException ie) {
          return;
        }
        backoff = Math.min(backoff * 2, 5000);
      } catch (RuntimeException e) {
        // A bug in the callback must not end listening; the caller polls anyway.
        log.error("store change callback failed", e);
      }
    }
  }

  @Override
  public void close() {
    running = false;
    Connection c = connection;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // Closing anyway.
      }
    }
    thread.interrupt();
  }
}
