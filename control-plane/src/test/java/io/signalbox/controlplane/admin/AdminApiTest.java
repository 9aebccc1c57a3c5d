package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.RejectedCandidate;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every route of an open (token-less, loopback) admin server, over real HTTP. */
class AdminApiTest {

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
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonNode body = json(response);
    assertThat(body.get("code").asText()).isEqualTo(code);
    assertThat(body.get("message").asText()).isEqualTo(message);
    assertThat(body.size()).isEqualTo(2);
  }

  @Test
  void healthAndReadinessAnswerOpenly() {
    assertThat(sb.get("/healthz").body()).isEqualTo("{\"status\":\"ok\"}");
    HttpResponse<String> ready = sb.get("/readyz");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(json(ready).get("ready").asBoolean()).isTrue();
    assertThat(json(ready).get("storeAvailable").asBoolean()).isTrue();
  }

  @Test
  void statusCarriesTheContractFields() {
    JsonNode status = json(sb.get("/api/v1/status"));
    assertThat(status.get("epoch").asLong()).isEqualTo(sb.server.reconciler().status().epoch()).isPositive();
    assertThat(status.get("lastSafeEpoch").isNumber()).isTrue();
    assertThat(status.get("frozen").asBoolean()).isFalse();
    assertThat(status.get("storeAvailable").asBoolean()).isTrue();
    assertThat(status.get("epochCreatedAt").asText()).isNotBlank();
    // The endpoint file and the REST registry (enabled by default).
    assertThat(status.get("sources").fieldNames()).toIterable().hasSize(2).contains("registry");
  }

  @Test
  void epochsListNewestFirstAndOneEpochByNumber() {
    long newest = sb.publishNewEpoch();
    JsonNode epochs = json(sb.get("/api/v1/epochs?limit=2"));
    assertThat(epochs.size()).isEqualTo(2);
    assertThat(epochs.get(0).get("epoch").asLong()).isEqualTo(newest);
    assertThat(epochs.get(0).get("status").asText()).isNotBlank();
    assertThat(epochs.get(0).has("reason")).isTrue();
    assertThat(epochs.get(0).get("epoch").asLong()).isGreaterThan(epochs.get(1).get("epoch").asLong());
    JsonNode one = json(sb.get("/api/v1/epochs/" + newest));
    assertThat(one.get("epoch").asLong()).isEqualTo(newest);
    assertThat(one.get("createdAt").asText()).isNotBlank();
  }

  @Test
  void unknownOrMalformedEpochsAreJsonErrors() {
    assertError(sb.get("/api/v1/epochs/999999"), 404, "unknown_epoch", "no epoch 999999");
    assertError(sb.get("/api/v1/epochs/abc"), 400, "bad_number", "epoch must be a whole number, was 'abc'");
    assertError(sb.get("/api/v1/epochs?limit=0"), 400, "bad_limit", "limit must be between 1 and 1000, was 0");
  }

  @Test
  void rejectionsListTheRejectedCandidatesViolations() {
    sb.server.reconciler().rejectInput(new RejectedCandidate(Instant.parse("2025-01-02T03:04:05Z"), "test",
        List.of("cluster 'greeter': maxEjectionPercent: must be <= 100, was 150")));
    JsonNode rejections = json(sb.get("/api/v1/rejections"));
    assertThat(rejections.get(0).get("cause").asText()).isEqualTo("test");
    assertThat(rejections.get(0).get("violations").get(0).asText())
        .isEqualTo("cluster 'greeter': maxEjectionPercent: must be <= 100, was 150");
    JsonNode last = json(sb.get("/api/v1/status")).get("lastRejection");
    assertThat(last.get("violations").size()).isEqualTo(1);
  }

  @Test
  void clientsShowLagAndStandingNacksWorstFirst() throws Exception {
    try (AnsweringAdsClient good = new AnsweringAdsClient(sb.server.xdsPort(), "good-1", "web");
        AnsweringAdsClient bad = new AnsweringAdsClient(sb.server.xdsPort(), "bad-1", "batch")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients?q=-1")).size() == 2
          && json(sb.get("/api/v1/clients/summary")).get("onCurrentEpoch").asInt() >= 2);
      bad.rejectWith = "no MAGLEV for you";
      long next = sb.publishNewEpoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients?q=bad-1")).get(0)
          .get("nacking").asBoolean());

      HttpResponse<String> response = sb.get("/api/v1/clients?q=-1&limit=1");
      assertThat(response.headers().firstValue("X-Total-Count")).hasValue("2");
      JsonNode worst = json(response).get(0);
      assertThat(worst.get("nodeId").asText()).isEqualTo("bad-1");
      assertThat(worst.get("group").asText()).isEqualTo("batch");
      assertThat(worst.get("lagEpochs").asLong()).isEqualTo(next - worst.get("heldEpoch").asLong()).isPositive();
      JsonNode eds = worst.get("types").get(XdsType.ENDPOINT.typeUrl());
      assertThat(eds.get("nack").get("message").asText()).isEqualTo("no MAGLEV for you");
      assertThat(eds.get("nack").get("epoch").asLong()).isEqualTo(next);
      assertThat(eds.get("ackedEpoch").asLong()).isLessThan(next);
      assertThat(eds.get("nacks").asLong()).isEqualTo(1);

      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients?group=web")).get(0)
          .get("lagEpochs").asLong() == 0);
      JsonNode summary = json(sb.get("/api/v1/clients/summary"));
      assertThat(summary.get("epoch").asLong()).isEqualTo(next);
      assertThat(summary.get("nacking").asInt()).isEqualTo(1);
      JsonNode nack = summary.get("nacks").get(0);
      assertThat(nack.get("nodeId").asText()).isEqualTo("bad-1");
      assertThat(nack.get("type").asText()).isEqualTo(XdsType.ENDPOINT.typeUrl());
      assertThat(nack.get("message").asText()).isEqualTo("no MAGLEV for you");
      assertThat(summary.get("groups").findValuesAsText("group")).containsSubsequence("batch", "web");
    }
  }

  @Test
  void reloadIsAcceptedAndAuditedAsAnonymous() {
    HttpResponse<String> response = sb.post("/api/v1/reload", "{\"reason\": \"rotated certs\"}", null);
    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.body()).isEqualTo("{\"reloading\":true}");
    JsonNode entry = json(sb.get("/api/v1/audit?limit=1")).get(0);
    assertThat(entry.get("actor").asText()).isEqualTo("anonymous");
    assertThat(entry.get("action").asText()).isEqualTo("reload");
    assertThat(entry.get("target").asText()).isEqualTo("config");
    assertThat(entry.get("reason").asText()).isEqualTo("rotated certs");
  }

  @Test
  void unknownBodyFieldsAndBadJsonAre400() {
    assertError(sb.post("/api/v1/reload", "{\"reason\": \"x\", \"force\": true}", null), 400, "unknown_field",
        "unknown field 'force' in the request body; known fields: [reason]");
    HttpResponse<String> bad = sb.post("/api/v1/reload", "{\"reason\": ", null);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).get("code").asText()).isEqualTo("bad_json");
  }

  @Test
  void oversizeBodiesAre413WithOrWithoutALength() {
    String big = "{\"reason\": \"" + "x".repeat(ApiRouter.MAX_BODY_BYTES) + "\"}";
    String message = "request bodies are limited to 65536 bytes";
    assertError(sb.post("/api/v1/reload", big, null), 413, "payload_too_large", message);
    HttpResponse<String> chunked = sb.send(HttpRequest.newBuilder(sb.uri("/api/v1/reload"))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes()))));
    assertError(chunked, 413, "payload_too_large", message);
  }

  @Test
  void unknownRoutesAndMethodsAreJsonErrors() {
    assertError(sb.get("/api/v1/nothing"), 404, "not_found", "no route GET /api/v1/nothing");
    assertError(sb.send(HttpRequest.newBuilder(sb.uri("/api/v1/status")).DELETE()), 405, "method_not_allowed",
        "method DELETE is not allowed on /api/v1/status");
  }

  @Test
  void dashboardIsServedFromTheJar() {
    HttpResponse<String> index = sb.get("/");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(index.body()).contains("<title>Signalbox</title>");
    HttpResponse<String> script = sb.get("/dashboard/app.js");
    assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
    assertThat(sb.get("/dashboard/style.css").statusCode()).isEqualTo(200);
    // The chart library comes from its WebJar in the jar, never from a CDN.
    HttpResponse<String> uplot = sb.get("/dashboard/uplot.js");
    assertThat(uplot.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
    assertThat(uplot.body()).contains("uPlot");
    assertThat(sb.get("/dashboard/uplot.css").body()).contains(".u-legend");
    assertError(sb.get("/dashboard/missing.js"), 404, "not_found", "no dashboard file 'missing.js'");
    assertError(sb.get("/dashboard/..%2Fsecret.txt"), 404, "not_found", "no dashboard file '../secret.txt'");
  }
}
