package io.signalbox.store;

import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.time.Clock;
import java.util.Objects;

/** Opens the store that {@link StoreSettings} names. */
public final class Stores {

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
    StoreSettings.urlProblem(url).ifPresent(problem -> {
      throw new IllegalArgumentException("store.url " + problem);
    });
    if (settings.memory()) {
      return new InMemorySnapshotStore(clock);
    }
    if (settings.embedded()) {
      EmbeddedDatabase server = EmbeddedDatabase.start(EmbeddedDatabase.clusterDirectory(settings.dataDir()));
      try {
        return PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", clock, server::stop);
      } catch (RuntimeException e) {
        server.stop();
        throw e;
      }
    }
    return PostgresSnapshotStore.open(url, Objects.requireNonNullElse(settings.user(), ""),
        Objects.requireNonNullElse(settings.password(), ""), clock);
  }
}
