package io.signalbox.store;

import java.time.Clock;

/** Opens the store that {@link StoreSettings} names. */
public final class Stores {

  public static final String EMBEDDED = "embedded";
  public static final String MEMORY = "memory";
  private static final String JDBC_PREFIX = "jdbc:postgresql:";

  private Stores() {}

  /**
   * Opens the store, starting the embedded server first when asked to, and migrates the schema.
   * Closing the returned store stops the embedded server it started.
   *
   * @throws StoreUnavailableException when the database cannot be reached or migrated
   * @throws IllegalArgumentException when the URL is none of the accepted forms
   */
  public static SnapshotStore open(StoreSettings settings, Clock clock) {
    String url = settings.url();
    if (url.equals(MEMORY)) {
      return new InMemorySnapshotStore(clock);
    }
    if (url.equals(EMBEDDED)) {
      EmbeddedDatabase server = EmbeddedDatabase.start(EmbeddedDatabase.clusterDirectory(settings.dataDir()));
      try {
        return PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", clock, server::stop);
      } catch (RuntimeException e) {
        server.stop();
        throw e;
      }
    }
    if (url.startsWith(JDBC_PREFIX)) {
      return PostgresSnapshotStore.open(url, settings.user(), settings.password(), clock);
    }
    throw new IllegalArgumentException(
        "store.url must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was '" + url + "'");
  }
}
