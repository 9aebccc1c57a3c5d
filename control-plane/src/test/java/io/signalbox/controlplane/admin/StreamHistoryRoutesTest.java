package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/clients/{id}/history} and {@code GET /api/v1/fleet?at=T} over a raw ADS
 * client: what they answer, and each bad parameter refused with its own code and message.
 */
class StreamHistoryRoutesTest {

  @TempDir static Path dir;
  static RunningSignalbox sb;

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  private static void assertError(HttpResponse<String> response, int status, String code, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(json(response).get("code").asText()).isEqualTo(code);
    assertThat(json(response).get("message").asText()).isEqualTo(message);
  }

  private static List<JsonNode> responses(JsonNode history) {
    List<JsonNode> out = new ArrayList<>();
    history.path("streams").forEach(s -> s.path("responses").forEach(out::add));
    return out;
  }

  @Test
  void aClientsHistoryListsEachResponseWithItsAckAndTheFleetAtNowHoldsTheEpoch() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "hist-1", "web")) {
      long epoch = sb.publishNewEpoch();
      JsonNode history = await().atMost(Duration.ofSeconds(20)).until(
          () -> json(sb.get("/api/v1/clients/hist-1/history?type=EDS")),
          h -> responses(h).stream().anyMatch(r -> r.path("epoch").asLong() == epoch
              && "ACK".equals(r.path("answer").asText())));
      assertThat(history.path("type").asText()).isEqualTo("ENDPOINT");
      assertThat(responses(history)).extracting(r -> r.path("type").asText()).containsOnly("ENDPOINT");
      assertThat(responses(history)).allSatisfy(r -> assertThat(r.path("sentAt").isTextual()).isTrue());
      assertThat(history.path("streams")).hasSize(1);
      assertThat(history.path("streams").get(0).path("closedAt").isNull()).isTrue();

      JsonNode all = json(sb.get("/api/v1/clients/hist-1/history"));
      assertThat(responses(all)).extracting(r -> r.path("type").asText())
          .contains("CLUSTER", "ENDPOINT");

      JsonNode fleet = await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/fleet?at=0s")),
          f -> f.path("converged").asInt() == f.path("clients").asInt());
      assertThat(fleet.path("epoch").asLong()).isEqualTo(epoch);
      JsonNode stream = fleet.path("streams").get(0);
      assertThat(stream.path("nodeId").asText()).isEqualTo("hist-1");
      assertThat(stream.path("epoch").asLong()).isEqualTo(epoch);
      assertThat(fleet.path("holding").isNull()).isTrue();
    }
  }

  @Test
  void anUnknownClientIsNotFoundWithTheClosestName() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "hist-2", "web")) {
      await().atMost(Duration.ofSeconds(20)).until(() -> sb.get("/api/v1/clients/hist-2/history").statusCode() == 200);
      HttpResponse<String> response = sb.get("/api/v1/clients/hist-3/history?since=2026-01-01T00:00:00Z");
      assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
      assertThat(json(response).get("code").asText()).isEqualTo("unknown_client");
      // Which other clients of this class are still connected depends on the order tests ran in.
      assertThat(json(response).get("message").asText())
          .startsWith("no client 'hist-3' in the history since 2026-01-01T00:00:00Z; did you mean ")
          .contains("'hist-2'");
    }
  }

  @Test
  void refusesBadTimesTypesAndResources() {
    assertError(sb.get("/api/v1/clients/x/history?since=yesterday"), 400, "bad_since",
        "since must be a time (2026-12-07T05:00:00Z) or how long ago (15m), was 'yesterday'");
    assertError(sb.get("/api/v1/clients/x/history?type=SDS"), 400, "bad_type",
        "type must be one of CDS, EDS, LDS, RDS, a type name (CLUSTER) or a type URL, was 'SDS'");
    assertError(sb.get("/api/v1/fleet"), 400, "bad_at",
        "at is required: a time (2026-12-07T05:00:00Z) or how long ago (15m)");
    assertError(sb.get("/api/v1/fleet?at=soon"), 400, "bad_at",
        "at must be a time (2026-12-07T05:00:00Z) or how long ago (15m), was 'soon'");
    assertError(sb.get("/api/v1/fleet?at=0s&holding=greeter"), 400, "bad_holding",
        "holding must be TYPE/name@version (e.g. ROUTE/greeter@3a9f...), was 'greeter'");
    assertError(sb.get("/api/v1/fleet?at=0s&holding=SECRET/x@1"), 400, "bad_holding",
        "holding type must be one of CLUSTER, ENDPOINT, LISTENER, ROUTE, was 'SECRET'");
  }
}
