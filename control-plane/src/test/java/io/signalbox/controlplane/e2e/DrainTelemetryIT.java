package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drains finish when the work has (issue 30 item 3), with grpc-java's own xDS client reporting its
 * load every second: with a five-minute {@code drainTimeout}, only the load reports can make a
 * drain safe within the test's time. A drained endpoint that unary traffic simply stops picking is
 * safe on basis IDLE; one holding a server stream is held at {@code inFlight: 1} (although every
 * client ACKed) until the stream ends, then safe on basis IDLE. The cluster has
 * {@code loadReportingPerEndpoint}, so the drained endpoint's work is its own, not its zone's.
 */
class DrainTelemetryIT {

  /** How long a backend's server stream lasts: long enough to watch the drain held by it. */
  static final Duration STREAM = Duration.ofSeconds(12);
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static final Map<String, Server> backends = new LinkedHashMap<>();
  static final ScheduledExecutorService streams = Executors.newScheduledThreadPool(2);
  static LoadReportingSignalbox sb;

  @BeforeAll
  static void start() throws Exception {
    for (String name : new String[] {"b1", "b2", "b3"}) {
      backends.put(name, backend(name));
    }
    sb = LoadReportingSignalbox.start(dir, "grpc-drain", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
        """.formatted(port("b1"), port("b2"), port("b3")), "drainTimeout: 5m");
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
    for (Server s : backends.values()) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    streams.shutdownNow();
  }

  /** A backend answering with its name, on unary calls and on each message of a server stream. */
  private static Server backend(String name) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }

          @Override
          public void serverStreamingRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            streams.schedule(() -> {
              response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
              response.onCompleted();
            }, STREAM.toMillis(), TimeUnit.MILLISECONDS);
          }
        })
        .build()
        .start();
  }

  private static int port(String name) {
    return backends.get(name).getPort();
  }

  private static String endpoint(String name) {
    return "127.0.0.1:" + port(name);
  }

  private static void drain(String name) {
    sb.admin.sendJson("POST", "/api/v1/clusters/greeter/endpoints/" + endpoint(name) + "/drain",
        "{\"reason\": \"drain telemetry IT\"}", 202);
  }

  /** When {@code nodeId}'s last load report arrived, as the load API shows it. */
  private static Instant lastReport(String nodeId) throws IOException {
    Admin.Reply reply = sb.admin.get("/api/v1/clusters/greeter/load");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    for (JsonNode c : JSON.readTree(reply.body()).get("clients")) {
      if (c.get("nodeId").asText().equals(nodeId)) {
        return Instant.parse(c.get("lastReport").asText());
      }
    }
    throw new AssertionError("no load reports from " + nodeId + " in " + reply.body());
  }

  /** This endpoint's entry of {@code GET /api/v1/drains}. */
  private static JsonNode drainOf(String name) throws IOException {
    Admin.Reply reply = sb.admin.get("/api/v1/drains");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    for (JsonNode d : JSON.readTree(reply.body())) {
      if (d.get("endpoint").asText().equals(endpoint(name))) {
        return d;
      }
    }
    throw new AssertionError("no drain of " + endpoint(name) + " in " + reply.body());
  }

  private static void assertSafeOnIdle(JsonNode d) {
    assertThat(d.get("safeToRemove").asBoolean()).as(d.toString()).isTrue();
    assertThat(d.get("basis").asText()).as(d.toString()).isEqualTo("IDLE");
    assertThat(d.get("deadlinePassed").asBoolean()).as(d.toString()).isFalse();
    assertThat(d.get("inFlight").asLong()).as(d.toString()).isZero();
    assertThat(d.get("reportingNothing")).as(d.toString()).isEmpty();
    assertThat(d.get("ackedBy")).as(d.toString()).extracting(JsonNode::asText).containsExactly("grpc-drain");
    assertThat(d.get("idle")).as(d.toString()).extracting(i -> i.get("client").asText())
        .containsExactly("grpc-drain");
  }

  @Test
  void aDrainUnaryTrafficStopsPickingIsSafeOnceTheClientReportsItIdle() throws Exception {
    sb.traffic.startCalling();
    try {
      // Work on b1 first, so that its idleness is learnt, not assumed.
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> "b1".equals(sb.traffic.call()));
      drain("b1");
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertSafeOnIdle(drainOf("b1")));
      assertThat(drainOf("b1").get("verdict").asText()).startsWith("every client ACKed and every reporting client idle");
    } finally {
      sb.traffic.stopCalling();
    }
  }

  /** A server stream from the client, with its first message and its end. */
  private record Stream(CompletableFuture<String> first, CompletableFuture<Void> end,
      ClientCallStreamObserver<SimpleRequest> call) {}

  private static Stream open() {
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<Void> end = new CompletableFuture<>();
    CompletableFuture<ClientCallStreamObserver<SimpleRequest>> call = new CompletableFuture<>();
    SimpleServiceGrpc.newStub(sb.traffic.channel()).serverStreamingRpc(SimpleRequest.getDefaultInstance(),
        new ClientResponseObserver<SimpleRequest, SimpleResponse>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<SimpleRequest> requestStream) {
            call.complete(requestStream);
          }

          @Override
          public void onNext(SimpleResponse value) {
            first.complete(value.getResponseMessage());
          }

          @Override
          public void onError(Throwable t) {
            first.completeExceptionally(t);
            end.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            end.complete(null);
          }
        });
    return new Stream(first, end, call.join());
  }

  @Test
  void aDrainHeldByALongStreamIsSafeOnlyOnceTheStreamEnds() throws Exception {
    // Round robin: open streams until one lands on b2; the others are cancelled at once.
    Stream onB2 = null;
    for (int i = 0; i < 30 && onB2 == null; i++) {
      Stream s = open();
      String name = s.first().get(30, TimeUnit.SECONDS);
      if (name.equals("b2")) {
        onB2 = s;
      } else {
        s.call().cancel("landed on " + name, null);
      }
    }
    assertThat(onB2).as("a stream on b2").isNotNull();
    Stream stream = onB2;

    drain("b2");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      JsonNode d = drainOf("b2");
      assertThat(d.get("clientsTotal").asInt()).as(d.toString()).isEqualTo(1);
      assertThat(d.get("clientsAcked").asInt()).as(d.toString()).isEqualTo(1);
    });
    assertThat(stream.end()).as("the stream still runs when every client ACKed").isNotDone();
    // The client's report shows the stream on b2's own locality, and that holds the drain.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertHeldByTheStream(drainOf("b2")));
    assertThat(stream.end()).as("the stream still runs when the reports show it").isNotDone();
    // ... and keeps holding it while the stream runs, report after report: every look holds it
    // until the client's rows show two reports newer than the one that first did (1 s apart).
    Instant shown = lastReport("grpc-drain");
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      assertHeldByTheStream(drainOf("b2"));
      return lastReport("grpc-drain").isAfter(shown.plusMillis(1500));
    });
    assertThat(stream.end()).as("the stream outlived the check, so the check saw it in flight").isNotDone();

    stream.end().get(30, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertSafeOnIdle(drainOf("b2")));
  }

  private static void assertHeldByTheStream(JsonNode d) {
    assertThat(d.get("safeToRemove").asBoolean()).as(d.toString()).isFalse();
    assertThat(d.get("basis").asText()).as(d.toString()).isEqualTo("WAITING");
    assertThat(d.get("inFlight").asLong()).as(d.toString()).isEqualTo(1);
    assertThat(d.get("inFlightBy")).as(d.toString()).singleElement().satisfies(c -> {
      assertThat(c.get("client").asText()).isEqualTo("grpc-drain");
      assertThat(c.get("inFlight").asLong()).isEqualTo(1);
    });
    assertThat(d.get("verdict").asText()).as(d.toString()).startsWith("in flight: 1 (grpc-drain 1)");
  }
}
