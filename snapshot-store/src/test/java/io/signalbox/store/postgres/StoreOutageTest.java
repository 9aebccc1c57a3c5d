package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreOutageTest {

  @TempDir Path dataDir;

  @Test
  void reportsTheOutageWithinSecondsAndWorksAgainOnceTheServerIsBack() throws IOException {
    int port = freePort();
    EmbeddedDatabase server = EmbeddedDatabase.start(dataDir, port);
    try (PostgresSnapshotStore store =
        PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", Clock.systemUTC())) {
      store.append(EnvelopeSealer.because("startup"));

      server.stop();
      long started = System.nanoTime();
      assertThatThrownBy(() -> store.append(EnvelopeSealer.because("during the outage")))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageStartingWith("snapshot store unavailable (append epoch): ");
      assertThatThrownBy(store::latest)
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageStartingWith("snapshot store unavailable (read latest epoch): ");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));

      server = EmbeddedDatabase.start(dataDir, port);
      await().atMost(Duration.ofSeconds(15)).ignoreException(StoreUnavailableException.class)
          .until(() -> store.append(EnvelopeSealer.because("after the outage")).getEpoch() == 2);
      assertThat(store.lastEpoch()).isEqualTo(2);
    } finally {
      server.stop();
    }
  }

  /**
   * While the server is down Hikari retries adding a connection with a back-off that doubles up to
   * 5 s; a store that waited for the pool would find the server back only that much later.
   */
  @Test
  void worksAgainAtOnceWhenTheServerReturnsAfterALongOutage() throws IOException {
    int port = freePort();
    EmbeddedDatabase server = EmbeddedDatabase.start(dataDir, port);
    try (PostgresSnapshotStore store =
        PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", Clock.systemUTC())) {
      store.append(EnvelopeSealer.because("startup"));
      server.stop();
      // Callers keep trying through the outage, as the reconciler does every second, long enough
      // for the pool's back-off to reach its ceiling.
      long outageEnds = System.nanoTime() + Duration.ofSeconds(12).toNanos();
      while (System.nanoTime() < outageEnds) {
        assertThatThrownBy(() -> store.append(EnvelopeSealer.because("during the outage")))
            .isInstanceOf(StoreUnavailableException.class);
        java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
      }

      server = EmbeddedDatabase.start(dataDir, port);
      long back = System.nanoTime();
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
          .ignoreException(StoreUnavailableException.class)
          .until(() -> store.append(EnvelopeSealer.because("after the outage")).getEpoch() == 2);
      assertThat(Duration.ofNanos(System.nanoTime() - back)).as("from the server accepting connections to a write")
          .isLessThan(Duration.ofMillis(1500));
    } finally {
      server.stop();
    }
  }

  @Test
  void everyGroupOfTablesReportsTheOutageNamingItsOperation() throws IOException {
    EmbeddedDatabase server = EmbeddedDatabase.start(dataDir, freePort());
    PostgresSnapshotStore opened;
    try {
      opened = PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", Clock.systemUTC());
    } finally {
      server.stop();
    }
    try (PostgresSnapshotStore store = opened) {
      Map<String, ThrowingCallable> reads = new LinkedHashMap<>();
      reads.put("read audit log", () -> store.auditLog(10));
      reads.put("read client statuses", () -> store.clients().all());
      reads.put("list overrides", () -> store.overrides().active());
      reads.put("list leases", () -> store.leases().all());
      reads.forEach((operation, read) -> assertThatThrownBy(read)
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageStartingWith("snapshot store unavailable (" + operation + "): "));
    }
  }

  @Test
  void openingAgainstAServerThatIsDownFailsWithinSeconds() throws IOException {
    String url = "jdbc:postgresql://localhost:" + freePort() + "/postgres";
    long started = System.nanoTime();

    assertThatThrownBy(() -> PostgresSnapshotStore.open(url, "postgres", "", Clock.systemUTC()))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageStartingWith("snapshot store unavailable (migrate schema): ");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
