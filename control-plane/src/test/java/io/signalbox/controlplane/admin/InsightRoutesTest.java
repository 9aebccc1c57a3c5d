package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-only routes the dashboard's charts and the CLI's explanations use: lag over time,
 * convergence of recent epochs, the diff of two epochs, why an endpoint is as it is, who the caller is.
 */
class InsightRoutesTest {

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

  @Test
  void convergenceDatesWhenEveryConnectedClientHeldANewEpoch() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "conv-1", "web")) {
      long epoch = sb.publishNewEpoch();

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        JsonNode recent = json(sb.get("/api/v1/convergence"));
        assertThat(recent).as("epochs sampled so far").isNotEmpty();
        JsonNode newest = recent.get(0);
        assertThat(newest.get("epoch").asLong()).isEqualTo(epoch);
        assertThat(newest.get("seconds").get("p100").isNumber()).as(newest.toString()).isTrue();
      });
      JsonNode newest = json(sb.get("/api/v1/convergence")).get(0);
      assertThat(newest.get("holding").asInt()).isEqualTo(newest.get("clients").asInt()).isPositive();
      assertThat(newest.get("nacked").asInt()).isZero();
      JsonNode seconds = newest.get("seconds");
      assertThat(seconds.get("p50").asDouble()).isLessThanOrEqualTo(seconds.get("p100").asDouble())
          .isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void lagSamplesCountTheFleetAndEachGroup() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "lag-1", "lagging")) {
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        JsonNode samples = json(sb.get("/api/v1/lag?minutes=1")).get("samples");
        assertThat(samples).as("lag samples so far").isNotEmpty();
        JsonNode last = samples.get(samples.size() - 1);
        assertThat(last.get("groups").findValuesAsText("group")).contains("lagging");
      });
      JsonNode lag = json(sb.get("/api/v1/lag?groups=1"));
      assertThat(lag.get("intervalSeconds").asInt()).isEqualTo(5);
      JsonNode last = lag.get("samples").get(lag.get("samples").size() - 1);
      assertThat(last.get("clients").asInt()).isPositive();
      assertThat(last.get("behind").asInt()).isBetween(0, last.get("clients").asInt());
      assertThat(last.get("groups").size()).isEqualTo(1);
    }
  }

  @Test
  void lagParametersAreChecked() {
    assertError(sb.get("/api/v1/lag?minutes=16"), 400, "bad_minutes", "minutes must be between 1 and 15, was 16");
    assertError(sb.get("/api/v1/lag?groups=x"), 400, "bad_number", "groups must be a whole number, was 'x'");
  }

  @Test
  void theDiffOfTwoEpochsNamesChangedResourcesAndEndpointTransitions() {
    long before = sb.server.reconciler().status().epoch();
    long after = sb.publishNewEpoch();

    JsonNode diff = json(sb.get("/api/v1/epochs/" + before + "/diff/" + after));

    assertThat(diff.get("from").asLong()).isEqualTo(before);
    assertThat(diff.get("to").asLong()).isEqualTo(after);
    assertThat(diff.get("added")).isEmpty();
    assertThat(diff.get("removed")).isEmpty();
    assertThat(diff.get("changed")).hasSize(1);
    assertThat(diff.get("changed").get(0).asText()).isEqualTo("ENDPOINT/greeter");
    JsonNode added = diff.get("endpoints").get(0);
    assertThat(added.get("cluster").asText()).isEqualTo("greeter");
    assertThat(added.get("from").isNull()).isTrue();
    assertThat(added.get("to").asText()).isEqualTo("READY");
    JsonNode backwards = json(sb.get("/api/v1/epochs/" + after + "/diff/" + before));
    assertThat(backwards.get("endpoints").get(0).get("to").isNull()).isTrue();
    assertError(sb.get("/api/v1/epochs/" + before + "/diff/999999"), 404, "unknown_epoch", "no epoch 999999");
  }

  @Test
  void whyOfAnEndpointGivesItsStateOriginAndSource() {
    JsonNode why = json(sb.get("/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/why"));

    assertThat(why.get("cluster").asText()).isEqualTo("greeter");
    assertThat(why.get("endpoint").asText()).isEqualTo("127.0.0.1:50001");
    assertThat(why.get("state").asText()).isEqualTo("READY");
    assertThat(why.get("origin").asText()).startsWith("file:").endsWith("endpoints.yaml");
    JsonNode source = why.get("causes").get(why.get("causes").size() - 1);
    assertThat(source.get("kind").asText()).isEqualTo("source");
    assertThat(source.get("at").isNull()).isTrue();
    assertThat(source.get("message").asText()).isEqualTo("from " + why.get("origin").asText() + " (FRESH)");
  }

  @Test
  void whyOfSomethingUnknownSuggestsTheClosestName() {
    assertError(sb.get("/api/v1/clusters/gretter/why"), 404, "unknown_cluster",
        "no cluster 'gretter'; did you mean 'greeter'?");
    assertError(sb.get("/api/v1/clusters/greeter/endpoints/127.0.0.1:50091/why"), 404, "unknown_endpoint",
        "cluster 'greeter' has no endpoint 127.0.0.1:50091; did you mean '127.0.0.1:50001'?");
    assertError(sb.get("/api/v1/clusters/greeter/endpoints/nope/why"), 400, "bad_endpoint",
        "expected address:port (IPv6 as [::1]:8080), was 'nope'");
  }

  @Test
  void withoutTokensEveryCallerMayOperate() {
    JsonNode me = json(sb.get("/api/v1/whoami"));

    assertThat(me.get("name").asText()).isEqualTo("anonymous");
    assertThat(me.get("role").isNull()).isTrue();
    assertThat(me.get("canOperate").asBoolean()).isTrue();
  }
}
