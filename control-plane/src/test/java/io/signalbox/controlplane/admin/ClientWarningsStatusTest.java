package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status names what the connected clients will ignore or NACK of what is served, as soon as
 * such a client connects: before it has NACKed anything (issue 33).
 */
class ClientWarningsStatusTest {

  @TempDir static Path dir;
  static RunningSignalbox sb;

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
    long before = sb.server.reconciler().status().epoch();
    RunningSignalbox.write(dir, "endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50001, zone: a, weight: 1 }
            - { address: 127.0.0.1, port: 50002, zone: a, weight: 5 }
        """);
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().status().epoch() > before);
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  private static List<String> warnings(JsonNode status) {
    List<String> out = new ArrayList<>();
    status.get("clientWarnings").forEach(w -> out.add(w.asText()));
    return out;
  }

  @Test
  void aConnectedGrpcJsClientIsWarnedAboutBeforeItNacksAnything() {
    assertThat(warnings(json(sb.get("/api/v1/status")))).isEmpty();

    try (RecordingAdsClient grpcJs = new RecordingAdsClient(sb.server.xdsPort()).openSotw()) {
      grpcJs.send(DiscoveryRequest.newBuilder()
          .setNode(Node.newBuilder().setId("js-1").setCluster("shop-js").setUserAgentName("gRPC Node Pure JS"))
          .setTypeUrl(XdsType.CLUSTER.typeUrl()).build());

      await().atMost(Duration.ofSeconds(10))
          .until(() -> json(sb.get("/api/v1/status")).get("clientKinds").path("grpc-js").asInt() == 1);
      JsonNode status = json(sb.get("/api/v1/status"));
      assertThat(warnings(status)).containsExactly(
          "endpoints of cluster 'greeter': endpoint weights: 1 grpc-js client will ignore them (grpc-js: round robin "
              + "treats endpoints alike; ring hash uses them) [client.ignored] (warning)");
    }
  }

  @Test
  void anEnvoyClientIsToldToHaveBeenSentOnlyTheLargestOfTwoDrops() {
    assertThat(sb.post("/api/v1/clusters/greeter/shed", "{\"percent\": 20}", null).statusCode()).isEqualTo(202);
    assertThat(sb.post("/api/v1/clusters/greeter/shed", "{\"percent\": 35, \"category\": \"signalbox_overload\"}",
        null).statusCode()).isEqualTo(202);

    try (RecordingAdsClient envoy = new RecordingAdsClient(sb.server.xdsPort()).openSotw()) {
      envoy.send(DiscoveryRequest.newBuilder()
          .setNode(Node.newBuilder().setId("envoy-1").setCluster("edge").setUserAgentName("envoy"))
          .setTypeUrl(XdsType.CLUSTER.typeUrl()).build());

      // The drops reach the served epoch through the writer: wait for the warning, not a count.
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(warnings(json(sb.get("/api/v1/status")))).contains(
          "endpoints of cluster 'greeter': drop overloads: 1 envoy client honours one category: it is sent "
              + "'signalbox_overload' at 35% alone, not the 2 categories the other clients apply in order "
              + "[client.reduced] (warning)"));
    } finally {
      sb.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(sb.get("/api/v1/status").uri().resolve(
          "/api/v1/clusters/greeter/shed").toString())).DELETE());
    }
    // Leaves the server as the other test expects it: no drop, no client.
    await().atMost(Duration.ofSeconds(20)).until(() -> warnings(json(sb.get("/api/v1/status"))).isEmpty()
        && json(sb.get("/api/v1/status")).get("drops").isEmpty());
  }
}
