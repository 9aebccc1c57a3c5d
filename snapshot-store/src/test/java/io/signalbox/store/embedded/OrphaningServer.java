package io.signalbox.store.embedded;

import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Run in a child JVM by {@link EmbeddedDatabaseTest}: starts the embedded server, commits epoch 1,
 * says {@code ready}, and waits to be killed, leaving its PostgreSQL orphaned as a crash would.
 */
public final class OrphaningServer {

  public static void main(String[] args) throws InterruptedException {
    EmbeddedDatabase server = EmbeddedDatabase.start(Path.of(args[0]));
    PostgresSnapshotStore store =
        PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", Clock.systemUTC());
    store.append(EnvelopeSealer.because("before the crash"));
    System.out.println("ready");
    System.out.flush();
    Thread.currentThread().join();
  }
}
