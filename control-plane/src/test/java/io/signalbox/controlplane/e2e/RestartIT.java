package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart serves the newest stored epoch before any source has synced (DESIGN §5), so clients
 * never get an empty or older configuration; sources catching up with the same content create no
 * epoch, and a real change exactly one.
 */
class RestartIT {

  private static final String CLUSTER = "greeter";

  @TempDir Path dir;
  private Workspace ws;
  private SignalboxServer server;
  private EdsWatcher client;
  private long stored;

  /** A first run publishes three epochs, the last with generation 3 of the endpoints, and stops. */
  @BeforeEach
  void publishAFewEpochsAndStop() {
    ws = new Workspace(dir);
    ws.write("endpoints.yaml", endpoints(1));
    ws.write("signalbox.yaml", Workspace.config(0, "ROUND_ROBIN").replace("store: { url: memory }",
        "store: { url: embedded, dataDir: ./data }"));
    server = start();
    Admin admin = new Admin(server.adminPort());
    await().atMost(Duration.ofSeconds(10)).until(admin::epoch, epoch -> epoch == 1);
    for (int generation = 2; generation <= 3; generation++) {
      long before = admin.epoch();
      ws.write("endpoints.yaml", endpoints(generation));
      await().atMost(Duration.ofSeconds(10)).until(admin::epoch, epoch -> epoch == before + 1);
    }
    stored = admin.epoch();
    server.close();
    server = null;
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private SignalboxServer start() {
    Path configFile = ws.file("signalbox.yaml");
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(configFile)).value();
    return SignalboxServer.start(configFile, config,
        new StoreSettings(config.store().url(), config.store().dataDir(), null, null), Clock.systemUTC());
  }

  @Test
  void servesTheStoredEpochWhileTheEndpointFileIsInvalidAndMakesNoEpochForTheSameContent() {
    ws.write("endpoints.yaml", "clusters:\n  greeter: [ { address: 127.0.0.1, port: oops } ]\n");
    server = start();
    Admin admin = new Admin(server.adminPort());

    assertThat(admin.epoch()).isEqualTo(stored);
    client = EdsWatcher.watch(server.xdsPort(), "restart-client", CLUSTER);
    awaitClientOn(stored, 3);
    awaitABuildOfEverythingOffered();
    assertThat(admin.epoch()).as("no epoch from the invalid file").isEqualTo(stored);

    ws.write("endpoints.yaml", endpoints(3));
    await("the file source synced").atMost(Duration.ofSeconds(10))
        .until(() -> admin.status().get("sources").elements().next().asText().equals("FRESH"));
    awaitABuildOfEverythingOffered();
    assertThat(admin.epoch()).as("no epoch for identical content").isEqualTo(stored);
    assertThat(admin.newestStoredEpoch()).isEqualTo(stored);
    assertThat(client.received()).hasSize(1);
  }

  @Test
  void servesTheStoredEpochUntilTheMissingSourceAppearsThenPublishesOneEpochForNewContent() throws Exception {
    Files.delete(ws.file("endpoints.yaml"));
    server = start();
    Admin admin = new Admin(server.adminPort());

    assertThat(admin.epoch()).isEqualTo(stored);
    client = EdsWatcher.watch(server.xdsPort(), "restart-client", CLUSTER);
    awaitClientOn(stored, 3);

    ws.write("endpoints.yaml", endpoints(4));
    awaitClientOn(stored + 1, 4);
    awaitABuildOfEverythingOffered();
    assertThat(admin.epoch()).as("exactly one new epoch").isEqualTo(stored + 1);
    assertThat(admin.newestStoredEpoch()).isEqualTo(stored + 1);
    assertThat(client.received()).extracting(EdsWatcher.Received::version)
        .containsExactly(Long.toString(stored), Long.toString(stored + 1));
  }

  /**
   * Returns once a build that began after this call has finished: it saw every input offered so far
   * (the file's state, once the status shows it), so the epoch then is all those inputs lead to.
   */
  private void awaitABuildOfEverythingOffered() {
    long begun = server.reconciler().buildsStarted();
    server.reconciler().poke("test: build what was offered");
    await("a build of everything offered").atMost(Duration.ofSeconds(30))
        .until(() -> server.reconciler().buildsFinished() > begun);
  }

  private void awaitClientOn(long epoch, int generation) {
    await("client on epoch " + epoch).atMost(Duration.ofSeconds(10)).until(client::latest,
        r -> new EdsWatcher.Received(Long.toString(epoch), addresses(generation)).equals(r));
  }

  /** One fixed endpoint and one whose port moves with the generation. */
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
