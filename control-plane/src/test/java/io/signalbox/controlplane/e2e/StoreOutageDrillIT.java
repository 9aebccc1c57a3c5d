package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.store.StoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault drill: PostgreSQL goes away under a running Signalbox (DESIGN §5) for
 * {@link DrillScale#storeOutage} while the endpoint file keeps changing (by rename and in place).
 * Throughout the outage clients keep their configuration (grpc-xds RPCs keep succeeding, a raw
 * ADS client is sent nothing), nothing is published, and {@code /readyz} (503), status
 * ({@code storeAvailable: false}, {@code pendingPublish}) and {@code signalbox_store_available}
 * say so. Once the database is back, the newest input is persisted and published as one epoch
 * within 5 s, and clients converge on it: the latest input wins, nothing in between is published.
 */
class StoreOutageDrillIT {

  private static final DrillScale SCALE = DrillScale.fromSystemProperties();
  private static final Duration RESUME = Duration.ofSeconds(5);

  @TempDir Path dir;
  private EmbeddedDatabase database;
  private SignalboxServer server;
  private Backends backends;
  private Traffic traffic;
  private XdsRecorder client;
  private FileEditor editor;

  @AfterEach
  void stop() throws Exception {
    if (editor != null) {
      editor.stop();
    }
    if (client != null) {
      client.close();
    }
    if (traffic != null) {
      traffic.close();
    }
    if (server != null) {
      server.close();
    }
    if (database != null) {
      database.stop();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @Test
  void keepsServingThroughAnOutageAndPublishesTheLatestInputWithinSecondsOfTheDatabaseReturning() throws Exception {
    DrillReport report = new DrillReport("store-outage-drill", SCALE);
    Workspace ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3", "b4");
    // A fixed port, so the database can come back where the store's connection pool looks for it.
    int databasePort = Workspace.freePort();
    Path databaseDir = dir.resolve("postgres");
    database = EmbeddedDatabase.start(databaseDir, databasePort);
    editor = new FileEditor(ws.file("endpoints.yaml"), this::endpoints, SCALE.seed(), Duration.ofMillis(50),
        Duration.ofMillis(400));
    editor.write();
    int xdsPort = Workspace.freePort();
    Path configFile = ws.write("signalbox.yaml", config(xdsPort));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(configFile)).value();
    server = SignalboxServer.start(configFile, config,
        new StoreSettings(database.jdbcUrl(), dir.resolve("data"), EmbeddedDatabase.USER, ""),
        Clock.systemUTC());
    Admin admin = new Admin(server.adminPort());
    traffic = new Traffic(GrpcXdsClient.bootstrap(xdsPort, "outage-grpc").open("greeter"));
    await("first traffic").atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> traffic.calls(12).equals(backendsOf(1)));
    client = XdsRecorder.connect(xdsPort, "outage-client", List.of("greeter"));
    traffic.startCalling();

    // Edits flow and are published...
    long before = admin.epoch();
    editor.start();
    await("edits published").atMost(Duration.ofSeconds(20)).until(() -> admin.epoch() > before + 2);

    // ...then the database goes away while they keep flowing.
    Instant stopped = Instant.now();
    database.stop();
    Duration stopping = Duration.between(stopped, Instant.now());
    await("the outage noticed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> {
          JsonNode status = admin.status();
          assertThat(status.get("storeAvailable").asBoolean()).isFalse();
          assertThat(status.get("pendingPublish").asBoolean()).isTrue();
        });
    Duration detected = Duration.between(stopped, Instant.now());
    long served = admin.epoch();
    int offered = client.assignments().size();
    int editsAtStop = editor.generation();
    Duration remaining = SCALE.storeOutage().minus(Duration.between(stopped, Instant.now()));
    long rpcsBefore = traffic.succeeded();
    int[] polls = new int[1];
    await("the outage, reported and served through").during(remaining).atMost(remaining.plusSeconds(30))
        .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
          polls[0]++;
          JsonNode status = admin.status();
          assertThat(status.get("storeAvailable").asBoolean()).as("status.storeAvailable").isFalse();
          assertThat(status.get("epoch").asLong()).as("nothing is published").isEqualTo(served);
          assertThat(admin.get("/readyz").status()).as("/readyz").isEqualTo(503);
          assertThat(admin.metric("signalbox_store_available")).isEqualTo(0.0);
          assertThat(client.assignments()).as("the client is sent nothing").hasSize(offered);
          assertThat(traffic.failures()).as("RPCs that failed").isEmpty();
        });
    editor.stop();
    int generation = editor.generation();
    long rpcsDuring = traffic.succeeded() - rpcsBefore;

    database = EmbeddedDatabase.start(databaseDir, databasePort);
    Instant back = Instant.now();
    await("publishing resumed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> admin.epoch() > served);
    Duration resumed = Duration.between(back, Instant.now());
    Duration outage = Duration.between(stopped, back);

    // The latest input wins: the first epoch after the outage is the final file, nothing in between.
    Snapshot first = server.reconciler().snapshot(served + 1);
    assertThat(first).as("epoch %d, the first after the outage", served + 1).isNotNull();
    assertThat(serving(first)).as("epoch %d has the final file's endpoints", served + 1)
        .isEqualTo(addresses(backendsOf(generation)));
    await("clients converge").atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
      assertThat(client.latest("greeter").serving()).isEqualTo(addresses(backendsOf(generation)));
      assertThat(traffic.calls(12)).isEqualTo(backendsOf(generation));
    });
    JsonNode status = admin.status();
    assertThat(status.get("storeAvailable").asBoolean()).isTrue();
    assertThat(admin.get("/readyz").status()).isEqualTo(200);
    assertThat(admin.metric("signalbox_store_available")).isEqualTo(1.0);
    ClientHistory.assertVersionsNeverWentBack(List.of(client));
    assertThat(traffic.failures()).as("RPCs that failed during the drill").isEmpty();

    report.line("PostgreSQL stopped for %s while the endpoint file was edited %d times (%d by rename, %d in place "
        + "in all), %d of them during the outage", DrillReport.seconds(outage), generation, editor.renames(),
        editor.inPlace(), generation - editsAtStop);
    report.line("outage reported (status.storeAvailable false, /readyz 503) %s after the stop began (pg_ctl stop "
        + "took %s); checked every 0.5 s through it (%d times)", DrillReport.seconds(detected),
        DrillReport.seconds(stopping), polls[0]);
    report.line("%d RPCs succeeded during the outage, none failed; the raw ADS client was sent nothing",
        rpcsDuring);
    report.line("database back (started and accepting connections) to the final file published as epoch %d: %s",
        served + 1, DrillReport.seconds(resumed));
    report.write();
    assertThat(resumed).as("publishing resumes within %s of the database returning", RESUME)
        .isLessThanOrEqualTo(RESUME);
  }

  /** The endpoints offered new work in {@code snapshot}'s greeter cluster. */
  private static Set<String> serving(Snapshot snapshot) {
    Set<String> out = new TreeSet<>();
    for (EndpointSpec e : snapshot.endpoints().getOrDefault("greeter", List.of())) {
      if (e.state() == EndpointState.READY) {
        out.add(e.key());
      }
    }
    return out;
  }

  private Set<String> addresses(Set<String> names) {
    Set<String> out = new TreeSet<>();
    names.forEach(b -> out.add("127.0.0.1:" + backends.port(b)));
    return out;
  }

  /** b1 always; b2-b4 as drawn for the generation (all of them at the first). */
  private Set<String> backendsOf(int generation) {
    Set<String> out = new TreeSet<>(Set.of("b1"));
    Random r = new Random(SCALE.seed() * 1_000_003L + generation);
    for (String b : List.of("b2", "b3", "b4")) {
      if (generation == 1 || r.nextBoolean()) {
        out.add(b);
      }
    }
    return out;
  }

  private String endpoints(int generation) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    backendsOf(generation).forEach(b -> out.append("    - { address: 127.0.0.1, port: ").append(backends.port(b))
        .append(", zone: a }\n"));
    return out.toString();
  }

  private static String config(int xdsPort) {
    return """
        xds: { port: %d }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - name: greeter
            connectTimeout: 1s
            drainTimeout: 1s
            massRemovalPercent: 100
        """.formatted(xdsPort);
  }
}
