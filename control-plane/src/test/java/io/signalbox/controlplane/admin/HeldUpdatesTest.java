package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mass-removal guard over a whole Signalbox: held, reported, applied once confirmed. */
class HeldUpdatesTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(10));
    await().atMost(Duration.ofSeconds(10)).until(() -> endpointCount() == 10);
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private int endpointCount() {
    return json(sb.get("/api/v1/clusters/greeter/endpoints")).size();
  }

  @Test
  void aSixtyPercentRemovalIsHeldUntilConfirmed() {
    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(4));

    await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/held")).size() == 1);
    assertThat(json(sb.get("/api/v1/held")).get(0).get("message").asText()).isEqualTo(
        "cluster 'greeter': one update takes 6 of 10 eligible endpoints out (60%), more than massRemovalPercent 50");
    assertThat(json(sb.get("/api/v1/status")).get("held").size()).isEqualTo(1);
    assertThat(endpointCount()).isEqualTo(10);

    assertThat(sb.post("/api/v1/clusters/greeter/confirm", "{\"reason\": \"scale down\"}", null).statusCode())
        .isEqualTo(202);
    // Applied: the six leave their source and drain before they disappear.
    await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clusters/greeter/endpoints"))
        .findValuesAsText("state").stream().filter("DRAINING"::equals).count() == 6);
    await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/held")).isEmpty());
  }

  @Test
  void aSourceThatSuddenlyReportsNothingKeepsTheLastEndpoints() {
    RunningSignalbox.write(dir, "endpoints.yaml", "clusters: {}\n");

    await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/held")).size() == 1);
    assertThat(json(sb.get("/api/v1/held")).get(0).get("rule").asText()).isEqualTo("guard.mass-removal");
    assertThat(json(sb.get("/api/v1/clusters/greeter/endpoints")).findValuesAsText("state"))
        .hasSize(10).containsOnly("READY");
    assertThat(sb.post("/api/v1/clusters/web/confirm", "", null).statusCode()).isEqualTo(404);
  }
}
