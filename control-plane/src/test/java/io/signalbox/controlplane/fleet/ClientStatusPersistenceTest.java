package io.signalbox.controlplane.fleet;

import static io.signalbox.controlplane.fleet.Clusters.CDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.NackEvent;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The recorder against a real PostgreSQL that goes away, comes back, and outlives a restart. */
class ClientStatusPersistenceTest {

  private static final String BAD_TIMEOUT = "cluster 'a': connect_timeout: must be at least 1s";
  private static final ClientStatusRecorder.Settings FAST =
      new ClientStatusRecorder.Settings("replica-a", Duration.ofMillis(100), Duration.ofMinutes(1));

  @TempDir Path dataDir;
  private final Clock clock = Clock.systemUTC();
  private final Clusters clusters = new Clusters();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger recorderLog = (Logger) LoggerFactory.getLogger(ClientStatusRecorder.class);
  private int port;
  private EmbeddedDatabase server;
  private AdsServer xds;

  @BeforeEach
  void start() throws IOException {
    logs.start();
    recorderLog.addAppender(logs);
    port = freePort();
    server = EmbeddedDatabase.start(dataDir, port);
    xds = AdsServer.start("127.0.0.1", 0, clock, new SimpleMeterRegistry());
  }

  @AfterEach
  void stop() {
    recorderLog.detachAppender(logs);
    xds.close();
    server.stop();
  }

  private SnapshotStore openStore() {
    return PostgresSnapshotStore.open(server.jdbcUrl(), EmbeddedDatabase.USER, "", clock);
  }

  @Test
  void anOutageIsReportedOnceAndTheBacklogIsWrittenWhenTheStoreIsBack() throws Exception {
    RecordingStore store = new RecordingStore(openStore());
    try (store; ClientStatusRecorder recorder = new ClientStatusRecorder(xds, store, clock, FAST).start();
        AdsClient client = new AdsClient(xds.port(), "n1", CDS)) {
      xds.publish(clusters.next("a", 1));
      client.ack(client.next());
      await().until(() -> ackedEpoch(store) == 1);

      server.stop();
      xds.publish(clusters.next("a", 2));
      client.nack(client.next(), "1", BAD_TIMEOUT);
      int before = store.attempts.get();
      // Several failed ticks (each waits out the 2 s connection timeout), yet one WARN.
      await().atMost(Duration.ofSeconds(30)).until(() -> store.attempts.get() >= before + 3);
      assertThat(warnings()).singleElement().asString().startsWith(
          "Client status not persisted, retrying every 100 ms until the store is back: snapshot store unavailable");

      server = EmbeddedDatabase.start(dataDir, port);

      // The server may still be recovering when it accepts connections.
      await().atMost(Duration.ofSeconds(30)).ignoreException(StoreUnavailableException.class)
          .until(() -> store.clients().recentNacks(10).size() == 1 && store.clients().all().get(0).lastNack() != null);
      assertThat(warnings()).hasSize(1);
      assertThat(store.clients().nacksOf(2L)).singleElement().extracting(NackEvent::message).isEqualTo(BAD_TIMEOUT);
      assertThat(store.clients().all()).singleElement().satisfies(r -> {
        assertThat(r.position().ackedEpoch()).isEqualTo(1);
        assertThat(r.position().sentEpoch()).isEqualTo(2);
        assertThat(r.nackCount()).isEqualTo(1);
      });
      await().until(() -> logs.list.stream().anyMatch(e -> e.getLevel() == Level.INFO
          && e.getFormattedMessage().startsWith("Client status persisted again")));
    }
  }

  @Test
  void afterARestartRejectedEpochsStayRejectedAndTheOldClientsShowAsDisconnected() throws Exception {
    try (SnapshotStore store = openStore();
        ClientStatusRecorder recorder = new ClientStatusRecorder(xds, store, clock, FAST).start();
        AdsClient client = new AdsClient(xds.port(), "n1", CDS)) {
      store.append(new io.signalbox.store.EpochSealer<io.signalbox.proto.v1.SnapshotEnvelope>() {
        @Override public io.signalbox.proto.v1.SnapshotEnvelope seal(long epoch) {
          return io.signalbox.proto.v1.SnapshotEnvelope.newBuilder().setEpoch(epoch).setContentHash("h").build();
        }
        @Override public io.signalbox.proto.v1.SnapshotEnvelope envelope(io.signalbox.proto.v1.SnapshotEnvelope s) {
          return s;
        }
      });
      store.setStatus(1, EpochStatus.REJECTED, "node 'n1' NACKed CLUSTER: " + BAD_TIMEOUT);
      xds.publish(clusters.next("a", 1));
      client.nack(client.next(), "", BAD_TIMEOUT);
      await().until(() -> store.clients().nacksOf(1L).size() == 1);
      // The process dies: no orderly close of the xDS server before the recorder stops.
      recorder.close();
    }
    AdsServer nextXds = AdsServer.start("127.0.0.1", 0, clock, new SimpleMeterRegistry());
    try (nextXds; SnapshotStore store = openStore();
        ClientStatusRecorder recorder = new ClientStatusRecorder(nextXds, store, clock,
            new ClientStatusRecorder.Settings("replica-b", Duration.ofMillis(100), Duration.ofMinutes(1))).start()) {
      await().until(() -> store.clients().all().stream().noneMatch(ClientRecord::connected));

      assertThat(store.epochs(10, Long.MAX_VALUE)).singleElement()
          .extracting(EpochRecord::status, EpochRecord::reason)
          .containsExactly(EpochStatus.REJECTED, "node 'n1' NACKed CLUSTER: " + BAD_TIMEOUT);
      assertThat(store.clients().all()).singleElement().satisfies(r -> {
        assertThat(r.key().replicaId()).isEqualTo("replica-a");
        assertThat(r.lastNack().message()).isEqualTo(BAD_TIMEOUT);
        assertThat(r.connected()).isFalse();
      });
      assertThat(store.clients().nacksOf(1L)).hasSize(1);
    }
  }

  private static long ackedEpoch(SnapshotStore store) {
    List<ClientRecord> rows = store.clients().all();
    return rows.isEmpty() ? -1 : rows.get(0).position().ackedEpoch();
  }

  private List<String> warnings() {
    return logs.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
