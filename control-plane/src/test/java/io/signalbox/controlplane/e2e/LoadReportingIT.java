package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.telemetry.ClusterLoad;
import io.signalbox.controlplane.telemetry.LocalityLoad;
import io.signalbox.controlplane.telemetry.Locality;
import io.signalbox.controlplane.telemetry.ReportingClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-java's xDS client reports its load to Signalbox: a cluster with {@code loadReporting: true}
 * gets {@code lrs_server: self}, grpc-xds opens an LRS stream on its ADS channel, and the read API
 * shows what it sent, per locality, within a couple of (1 s) intervals.
 */
class LoadReportingIT {

  @TempDir static Path dir;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static final Instant STARTED = Instant.now();

  @BeforeAll
  static void start() throws Exception {
    Workspace ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
            - { address: 127.0.0.1, port: %d, zone: b, state: READY }
        """.formatted(backends.port("b1"), backends.port("b2"), backends.port("b3")));
    String config = Workspace.config(xdsPort, "ROUND_ROBIN")
        .replace("xds: { port: " + xdsPort + " }", "xds: { port: " + xdsPort + ", loadReportingInterval: 1s }")
        .replace("    connectTimeout: 1s\n", "    connectTimeout: 1s\n    loadReporting: true\n");
    assertThat(config).contains("loadReporting: true").contains("loadReportingInterval: 1s");
    Path file = ws.write("signalbox.yaml", config);
    server = RunningSignalbox.serve(file);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-lrs");
    channel = client.channel("greeter");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static boolean call() {
    try {
      SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.getDefaultInstance());
      return true;
    } catch (io.grpc.StatusRuntimeException e) {
      return false;
    }
  }

  /** Succeeded calls per zone, summed over every interval so far. */
  private static Map<String, Long> succeededByZone() {
    Map<String, Long> out = new TreeMap<>();
    for (LocalityLoad l : server.fleetLoad().load("greeter", STARTED.minusSeconds(60)).localities()) {
      out.merge(l.locality().zone(), l.succeeded(), Long::sum);
    }
    return out;
  }

  @Test
  void reportsWhatGrpcXdsSentPerLocality() {
    // Until the client holds its config, calls fail; those never reach a locality.
    await().atMost(Duration.ofSeconds(60)).until(LoadReportingIT::call);
    long succeeded = 1;
    for (int i = 0; i < 59; i++) {
      if (call()) {
        succeeded++;
      }
    }
    long expected = succeeded;

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(succeededByZone().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(expected));
    Map<String, Long> byZone = succeededByZone();
    // Round robin over two endpoints in zone a and one in zone b.
    assertThat(byZone.keySet()).containsExactly("a", "b");
    assertThat(byZone.get("a")).isGreaterThan(byZone.get("b"));
    ClusterLoad load = server.fleetLoad().load("greeter", STARTED.minusSeconds(60));
    assertThat(load.localities()).allSatisfy(l -> {
      assertThat(l.endpoint()).as("grpc-java reports per locality only").isEmpty();
      assertThat(l.errored()).isZero();
      assertThat(l.issued()).isGreaterThanOrEqualTo(l.succeeded());
    });
    assertThat(load.clients()).extracting(ReportingClient::nodeId).containsExactly("grpc-lrs");
    assertThat(server.fleetLoad().work("greeter", new Locality("", "a", "")))
        .singleElement().satisfies(w -> assertThat(w.idle()).isTrue());
  }
}
