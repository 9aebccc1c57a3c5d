package io.signalbox.controlplane.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics}, open by default, parsed strictly as Prometheus text. */
class MetricsTest {

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

  static PrometheusText.Exposition scrape() {
    var response = sb.get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
    return PrometheusText.parse(response.body());
  }

  @Test
  void exposesTheDocumentedSeries() {
    PrometheusText.Exposition metrics = scrape();
    assertThat(metrics.types()).containsEntry("signalbox_epoch", "gauge")
        .containsEntry("signalbox_store_available", "gauge")
        .containsEntry("signalbox_after_publish_backlog", "gauge")
        .containsEntry("signalbox_leader", "gauge")
        .containsEntry("signalbox_replicas", "gauge")
        .containsEntry("signalbox_epochs_published_total", "counter")
        .containsEntry("signalbox_resource_serializations_total", "counter")
        .containsEntry("signalbox_epoch_build_seconds", "summary")
        .containsKeys("jvm_memory_used_bytes", "jvm_threads_live_threads", "process_uptime_seconds",
            "jvm_gc_memory_allocated_bytes_total", "system_cpu_count");
    assertThat(metrics.value("signalbox_store_available")).isEqualTo(1.0);
    assertThat(metrics.value("signalbox_leader")).as("standalone leads").isEqualTo(1.0);
    assertThat(metrics.value("signalbox_replicas")).isEqualTo(1.0);
    assertThat(metrics.value("signalbox_epochs_published_total")).isPositive();
  }

  @Test
  void theEpochGaugeMovesWithAPublishedEpoch() {
    double before = scrape().value("signalbox_epoch");
    long published = sb.publishNewEpoch();
    PrometheusText.Exposition after = scrape();
    assertThat(after.value("signalbox_epoch")).isEqualTo((double) published).isGreaterThan(before);
    assertThat(after.value("signalbox_epoch_build_seconds_count")).isGreaterThanOrEqualTo(2);
  }

  @Test
  void fleetGaugesCountClientsAndLagPerGroupAndNacksPerType() throws Exception {
    try (AnsweringAdsClient a = new AnsweringAdsClient(sb.server.xdsPort(), "m-1", "mesh");
        AnsweringAdsClient b = new AnsweringAdsClient(sb.server.xdsPort(), "m-2", "mesh")) {
      Map<String, String> mesh = Map.of("group", "mesh");
      await().atMost(Duration.ofSeconds(10)).until(() -> scrape().samples("signalbox_clients_current").stream()
          .anyMatch(s -> s.labels().equals(mesh) && s.value() == 2));
      b.rejectWith = "refused";
      sb.publishNewEpoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> scrape().samples("signalbox_clients_nacking").stream()
          .anyMatch(s -> s.labels().equals(mesh) && s.value() == 1));
      PrometheusText.Exposition metrics = scrape();
      assertThat(metrics.value("signalbox_clients", mesh)).isEqualTo(2);
      assertThat(metrics.value("signalbox_client_lag_epochs_max", mesh)).isPositive();
      assertThat(metrics.value("signalbox_client_lag_epochs_mean", mesh))
          .isEqualTo(metrics.value("signalbox_client_lag_epochs_max", mesh) / 2);
      assertThat(metrics.value("signalbox_nacks_total", Map.of("type", "ENDPOINT"))).isEqualTo(1);
      assertThat(metrics.value("signalbox_xds_bytes_pushed_total", Map.of("type", "CLUSTER"))).isPositive();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> scrape().samples("signalbox_clients").isEmpty());
  }
}
