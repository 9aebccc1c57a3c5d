package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.source.yaml.Parsed;
import io.signalbox.store.EmbeddedDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL goes away under a running Signalbox (DESIGN §5): it keeps serving what it has,
 * publishes nothing new and says so; once the database is back, the newest desired state is
 * persisted and published as one new epoch within seconds.
 */
class StoreOutageIT {

  @TempDir Path dir;
  private EmbeddedDatabase database;
  private SignalboxServer server;
  private EdsWatcher client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (database != null) {
      database.stop();
    }
  }

  @Test
  void keepsServingDuringAnOutageAndPublishesTheLatestStateOnceTheDatabaseIsBack() {
    Workspace ws = new Workspace(dir);
    // A fixed port, so the database can come back where the store's connection pool looks for it.
    int databasePort = Workspace.freePort();
    Path databaseDir = dir.resolve("postgres");
    database = EmbeddedDatabase.start(databaseDir, databasePort);
    ws.write("endpoints.yaml", endpoints(1));
    Path configFile = ws.write("signalbox.yaml", Workspace.config(0, "ROUND_ROBIN"));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(configFile)).value();
    server = SignalboxServer.start(configFile, config,
        new SignalboxServer.StoreTarget(database.jdbcUrl(), dir.resolve("data"), EmbeddedDatabase.USER, ""),
        Clock.systemUTC());
    Admin admin = new Admin(server.adminPort());
    long n = await().atMost(Duration.ofSeconds(10)).until(admin::epoch, epoch -> epoch > 0);
    client = EdsWatcher.watch(server.xdsPort(), "outage-client", "greeter");
    await().atMost(Duration.ofSeconds(10))
        .until(client::latest, r -> new EdsWatcher.Received(Long.toString(n), addresses(1)).equals(r));
    int heldResponses = client.received().size();

    database.stop();
    ws.write("endpoints.yaml", endpoints(2));
    await("the outage noticed").atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
      JsonNode status = admin.status();
      assertThat(status.get("storeAvailable").asBoolean()).isFalse();
      assertThat(status.get("pendingPublish").asBoolean()).isTrue();
    });
    // The newest input during the outage is what is published afterwards; nothing queues.
    ws.write("endpoints.yaml", endpoints(3));
    assertThat(admin.epoch()).isEqualTo(n);
    assertThat(admin.get("/readyz").status()).isEqualTo(503);
    assertThat(admin.metric("signalbox_store_available")).isEqualTo(0.0);
    await("the client keeps its config").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
        .until(() -> client.received().size() == heldResponses && admin.epoch() == n);

    database = EmbeddedDatabase.start(databaseDir, databasePort);
    await("publishing resumed").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(admin.epoch()).isEqualTo(n + 1);
      assertThat(client.latest()).isEqualTo(new EdsWatcher.Received(Long.toString(n + 1), addresses(3)));
    });
    JsonNode status = admin.status();
    assertThat(status.get("storeAvailable").asBoolean()).isTrue();
    assertThat(status.get("pendingPublish").asBoolean()).isFalse();
    assertThat(admin.newestStoredEpoch()).as("one epoch for the whole outage").isEqualTo(n + 1);
    assertThat(admin.get("/readyz").status()).isEqualTo(200);
    assertThat(admin.metric("signalbox_store_available")).isEqualTo(1.0);
    assertThat(client.received()).hasSize(heldResponses + 1);
  }

  static String endpoints(int generation) {
    return """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50051, zone: a }
            - { address: 127.0.0.1, port: %d, zone: a }
        """.formatted(51_000 + generation);
  }

  static Set<String> addresses(int generation) {
    return Set.of("127.0.0.1:50051", "127.0.0.1:" + (51_000 + generation));
  }
}
