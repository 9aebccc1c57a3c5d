package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Readiness to first traffic (issue 30 item 5) with grpc-java's own xDS client reporting its load
 * every second: an endpoint added READY to a cluster with {@code loadReportingPerEndpoint} (so its
 * requests show in a locality of its own) gets its delay shown in the load view within a few
 * intervals, in {@code signalbox load}, and in the per-cluster histogram.
 */
class FirstTrafficIT {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static Workspace ws;
  static Server b1;
  static Server b2;
  static SignalboxServer server;
  static Admin admin;
  static ManagedChannel channel;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    b1 = backend("b1");
    b2 = backend("b2");
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints(false));
    String config = Workspace.config(xdsPort, "ROUND_ROBIN")
        .replace("xds: { port: " + xdsPort + " }", "xds: { port: " + xdsPort + ", loadReportingInterval: 1s }")
        .replace("    connectTimeout: 1s\n", """
                connectTimeout: 1s
                loadReporting: true
                loadReportingPerEndpoint: true
            """);
    assertThat(config).contains("loadReportingPerEndpoint: true");
    Path file = ws.write("signalbox.yaml", config);
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(file)).value();
    server = SignalboxServer.start(file, cfg,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    admin = new Admin(server.adminPort());
    Workspace.bootstrapGrpcXds(xdsPort, "grpc-first");
    channel = Grpc.newChannelBuilder("xds:///greeter", InsecureChannelCredentials.create()).build();
    await().atMost(Duration.ofSeconds(60)).until(() -> call() != null);
  }

  @AfterAll
  static void stop() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
    for (Server s : new Server[] {b1, b2}) {
      if (s != null) {
        s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static String endpoints(boolean withB2) {
    return """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
        """.formatted(b1.getPort())
        + (withB2 ? "    - { address: 127.0.0.1, port: %d, zone: a, state: READY }\n".formatted(b2.getPort()) : "");
  }

  private static Server backend(String name) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }
        })
        .build()
        .start();
  }

  private static String call() {
    try {
      return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  private static JsonNode load() throws IOException {
    Admin.Reply reply = admin.get("/api/v1/clusters/greeter/load");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return JSON.readTree(reply.body());
  }

  private static String cli(String... args) {
    java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of(args));
    argv.addAll(java.util.List.of("--server", "http://127.0.0.1:" + server.adminPort()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(argv.toArray(String[]::new));
    assertThat(exit).as("signalbox %s: %s", String.join(" ", args), err).isZero();
    return out.toString();
  }

  @Test
  void anEndpointAddedReadyGetsItsReadinessToFirstTrafficDelayWithinAFewIntervals() throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    Thread traffic = new Thread(() -> {
      while (running.get()) {
        call();
      }
    }, "unary-traffic");
    traffic.start();
    try {
      // The client reports: b1 has a locality of its own and shows work there.
      await().atMost(Duration.ofSeconds(30)).until(() -> load().path("localities").size() == 1);
      long before = server.reconciler().status().epoch();
      String b2 = "127.0.0.1:" + FirstTrafficIT.b2.getPort();

      ws.write("endpoints.yaml", endpoints(true));
      await().atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().status().epoch() > before);
      await().atMost(Duration.ofSeconds(30)).until(() -> "b2".equals(call()));

      // A few 1 s intervals: the view names b2 with its epoch, when it became READY, and the delay.
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        JsonNode first = load().path("firstTraffic");
        assertThat(first).as(first.toString()).hasSize(1);
        JsonNode r = first.get(0);
        assertThat(r.get("endpoint").asText()).isEqualTo(b2);
        assertThat(r.get("epoch").asLong()).isGreaterThan(before);
        assertThat(r.get("delayMs").isNumber()).as(r.toString()).isTrue();
        assertThat(r.get("seenIn").asText()).isEqualTo("locality");
        Instant readyAt = Instant.parse(r.get("readyAt").asText());
        Instant seenBy = Instant.parse(r.get("seenBy").asText());
        assertThat(Duration.between(readyAt, seenBy).toMillis()).isEqualTo(r.get("delayMs").asLong());
      });

      assertThat(cli("load", "greeter")).contains("READY ENDPOINT").contains(b2).contains("locality");
      Admin.Reply metrics = admin.get("/metrics");
      assertThat(metrics.body()).contains("signalbox_load_first_traffic_seconds_count{cluster=\"greeter\"} 1");
    } finally {
      running.set(false);
      traffic.join(10_000);
    }
  }
}
