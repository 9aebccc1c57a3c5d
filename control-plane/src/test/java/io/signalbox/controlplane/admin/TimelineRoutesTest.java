package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/timeline}: its parameters, and an operator's action with the epoch it caused. */
class TimelineRoutesTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private static List<String> actions(JsonNode timeline) {
    List<String> out = new ArrayList<>();
    timeline.path("events").forEach(e -> out.add(e.path("kind").asText() + " " + e.path("action").asText() + " "
        + e.path("actor").asText() + " " + e.path("target").asText() + " | " + e.path("reason").asText()));
    return out;
  }

  @Test
  void listsAnOperatorsDrainBeforeTheEpochItCaused() {
    // Two endpoints: draining the only one would be held (minEligible).
    long before = sb.publishNewEpoch();
    HttpResponse<String> drain = sb.post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/drain",
        "{\"reason\": \"kernel update\"}", null);
    assertThat(drain.statusCode()).as(drain.body()).isEqualTo(202);
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().status().epoch() > before);
    long drained = sb.server.reconciler().status().epoch();

    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(actions(json(sb.get("/api/v1/timeline"))))
        .containsSubsequence(
            "drain drain anonymous greeter/127.0.0.1:50001 | kernel update",
            "epoch publish signalbox epoch " + drained + " | operator change"));
  }

  @Test
  void sinceTakesADurationOrATime() {
    JsonNode all = json(sb.get("/api/v1/timeline?since=1h"));
    assertThat(all.path("events")).isNotEmpty();
    assertThat(all.path("truncated").asBoolean()).isFalse();

    Instant later = Instant.now().plusSeconds(60);
    JsonNode none = json(sb.get("/api/v1/timeline?since=" + later));
    assertThat(none.path("events")).isEmpty();
    assertThat(none.path("since").asText()).isEqualTo(later.toString());
  }

  @Test
  void aLimitKeepsTheNewestAndSaysSo() {
    sb.publishNewEpoch();
    long newest = sb.publishNewEpoch();

    // The epoch's transitions are audited after it is published.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      JsonNode two = json(sb.get("/api/v1/timeline?limit=2"));
      assertThat(two.path("truncated").asBoolean()).isTrue();
      assertThat(actions(two)).hasSize(2);
      assertThat(actions(two).get(0)).startsWith("epoch publish signalbox epoch " + newest + " | source file:");
      assertThat(actions(two).get(1)).isEqualTo(
          "transition transition signalbox greeter/127.0.0.1:50003 | new -> READY in epoch " + newest
              + " (source file:" + dir.resolve("endpoints.yaml") + ")");
    });
  }

  @Test
  void refusesASinceThatIsNeitherAndALimitOutOfRange() {
    HttpResponse<String> since = sb.get("/api/v1/timeline?since=yesterday");
    assertThat(since.statusCode()).isEqualTo(400);
    assertThat(json(since).path("code").asText()).isEqualTo("bad_since");
    assertThat(json(since).path("message").asText()).isEqualTo("since must be a duration back from now (90s, 30m, 1h)"
        + " or a UTC time (2025-01-02T03:04:05Z), was 'yesterday'");

    HttpResponse<String> limit = sb.get("/api/v1/timeline?limit=0");
    assertThat(limit.statusCode()).isEqualTo(400);
    assertThat(json(limit).path("message").asText()).isEqualTo("limit must be between 1 and 1000, was 0");
  }
}
