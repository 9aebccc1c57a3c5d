package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gauges the alert rules and the Grafana dashboard watch: held updates, convergence, lag in seconds. */
class AttentionMetricsTest {

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

  private PrometheusText.Exposition scrape() {
    return PrometheusText.parse(sb.get("/metrics").body());
  }

  @Test
  void aHeldUpdateIsCountedWithTheAgeOfTheOldest() {
    assertThat(scrape().value("signalbox_held_updates")).isZero();
    assertThat(scrape().value("signalbox_held_update_age_seconds_max")).isZero();

    RunningSignalbox.write(dir, "endpoints.yaml", "clusters: {}\n");

    await().atMost(Duration.ofSeconds(10)).until(() -> scrape().value("signalbox_held_updates") == 1);
    // The age grows from when the guard first held the update.
    await().atMost(Duration.ofSeconds(10)).until(() -> scrape().value("signalbox_held_update_age_seconds_max") >= 1);
  }

  @Test
  void convergenceAndLagInSecondsAreExportedOnceClientsHoldAnEpoch() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "m-1", "mesh")) {
      sb.publishNewEpoch();

      await().atMost(Duration.ofSeconds(10)).until(() ->
          !Double.isNaN(scrape().value("signalbox_epoch_convergence_seconds", Map.of("share", "100"))));
      PrometheusText.Exposition metrics = scrape();
      assertThat(metrics.value("signalbox_epoch_convergence_seconds", Map.of("share", "50")))
          .isLessThanOrEqualTo(metrics.value("signalbox_epoch_convergence_seconds", Map.of("share", "100")));
      assertThat(metrics.value("signalbox_client_lag_seconds_max", Map.of("group", "mesh"))).isGreaterThanOrEqualTo(0);
    }
  }
}
