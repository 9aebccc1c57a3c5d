package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.config.TokenSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drain protocol end to end (issue 6): the built jar serving on the embedded PostgreSQL, three
 * real gRPC backends, grpc-xds in this JVM, and the operator CLI as its own process. A drain
 * followed with {@code --wait} ends in "safe to remove" and from then on the backend gets no new
 * RPCs; undrain brings it back; a drain outlives a restart of the server; the audit log names who
 * did each.
 */
class DrainEndToEndIT {

  static final String OPERATOR_TOKEN = "ops-secret";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static Path config;
  static int adminPort;
  static SignalboxProcess server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static Map<String, String> operatorEnv;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    int xdsPort = Workspace.freePort();
    adminPort = Workspace.freePort();
    operatorEnv = Map.of("SIGNALBOX_SERVER", "http://127.0.0.1:" + adminPort, "SIGNALBOX_TOKEN", OPERATOR_TOKEN);
    ws.write("endpoints.yaml", "clusters:\n  greeter:\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b1") + ", zone: a }\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b2") + ", zone: a }\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b3") + ", zone: a }\n");
    config = ws.write("signalbox.yaml", """
        xds: { port: %d, address: 127.0.0.1 }
        admin:
          address: 127.0.0.1
          port: %d
          tokens:
            - { name: ops, role: operator, sha256: %s }
        store: { url: embedded, dataDir: %s }
        rollout: { settle: 1s }
        sources:
          files: [ %s ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - { name: greeter, apiListener: true, routeConfig: greeter }
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - { name: greeter, lbPolicy: ROUND_ROBIN, connectTimeout: 1s }
        """.formatted(xdsPort, adminPort, TokenSettings.sha256Hex(OPERATOR_TOKEN), dir.resolve("data"),
        dir.resolve("endpoints.yaml")));
    startServer();
    client = GrpcXdsClient.bootstrap(xdsPort, "drain-e2e");
    channel = client.channel("greeter");
  }

  /** Assigns {@link #server} before waiting, so {@code @AfterAll} ends a process that never gets ready. */
  private static void startServer() {
    server = SignalboxProcess.start(config, dir.resolve("data"), dir.resolve("signalbox.log"));
    CliProcess.awaitReady(adminPort, server);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      try {
        if (server != null) {
          server.close();
        }
      } finally {
        if (backends != null) {
          backends.close();
        }
      }
    }
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static List<String> calls(int n) {
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      seen.add(call());
    }
    return seen;
  }

  private static CliProcess.Result cli(String... args) {
    return CliProcess.run(dir, operatorEnv, args);
  }

  private static String endpoint(String backend) {
    return "127.0.0.1:" + backends.port(backend);
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
            .header("Authorization", "Bearer " + OPERATOR_TOKEN).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }

  @Test
  void aDrainIsSafeToRemoveThenGetsNoRpcsAndOutlivesARestart() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> new HashSet<>(calls(6)).equals(Set.of("b1", "b2", "b3")));

    String b3 = endpoint("b3");
    CliProcess.Result drain = cli("drain", "greeter", b3, "--deadline", "1s", "--wait", "--reason", "kernel upgrade");

    assertThat(drain.exit()).as(drain.out() + drain.err()).isZero();
    assertThat(drain.err()).isEmpty();
    assertThat(drain.outLines()).last().isEqualTo("safe to remove greeter/" + b3 + ": deadline passed; no load reporting");
    assertThat(drain.outLines()).anyMatch(line -> line.matches(
        "draining greeter/" + b3.replace(".", "\\.") + ": 1 of 1 client acknowledged epoch \\d+, .*"));
    // Safe to remove: the client holds the draining epoch, so no new RPC goes to b3.
    assertThat(calls(30)).doesNotContain("b3").contains("b1", "b2");

    CliProcess.Result undrain = cli("undrain", "greeter", b3);

    assertThat(undrain.exit()).as(undrain.err()).isZero();
    assertThat(undrain.out()).isEqualTo("undrained greeter/" + b3 + "\n");
    await().atMost(Duration.ofSeconds(20)).until(() -> calls(6).contains("b3"));

    // A drain made before a restart holds after it: the override is stored, not just in memory.
    String b2 = endpoint("b2");
    CliProcess.Result drainB2 = cli("drain", "greeter", b2, "--reason", "before restart");
    assertThat(drainB2.exit()).as(drainB2.err()).isZero();
    await().atMost(Duration.ofSeconds(20)).until(() -> !calls(10).contains("b2"));

    server.close();
    startServer();

    CliProcess.Result endpoints = cli("endpoints", "greeter", "--output", "json");
    assertThat(endpoints.exit()).as(endpoints.err()).isZero();
    JsonNode b2AfterRestart = null;
    for (JsonNode e : new ObjectMapper().readTree(endpoints.out())) {
      if (e.get("endpoint").asText().equals(b2)) {
        b2AfterRestart = e;
      }
    }
    assertThat(b2AfterRestart).as(endpoints.out()).isNotNull();
    assertThat(b2AfterRestart.get("state").asText()).isEqualTo("DRAINING");
    assertThat(b2AfterRestart.get("override").asText()).isEqualTo("drained by ops");
    // The client reconnects to the restarted server and still sends b2 nothing.
    await().atMost(Duration.ofSeconds(30)).until(() -> api("/api/v1/clients").size() == 1);
    assertThat(calls(30)).doesNotContain("b2").contains("b1", "b3");

    List<String> audit = new ArrayList<>();
    for (JsonNode entry : api("/api/v1/audit")) {
      audit.add(entry.get("actor").asText() + " " + entry.get("action").asText() + " " + entry.get("target").asText());
    }
    assertThat(audit).containsSubsequence(
        "ops drain greeter/" + b2,
        "ops undrain greeter/" + b3,
        "ops drain greeter/" + b3);
  }
}
