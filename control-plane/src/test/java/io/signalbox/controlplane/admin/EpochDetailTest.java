package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/epochs/{n}}: what changed, why, and how far each node group has got. */
class EpochDetailTest {

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

  @Test
  void theFirstEpochsProvenanceNamesTheSourceThatSuppliedItsEndpoints() {
    // Both sources sync before epoch 1; the registry (empty) may report first, and was named.
    String file = "file:" + dir.toAbsolutePath().normalize().resolve("endpoints.yaml");
    var provenance = sb.server.store().load(1).map(io.signalbox.controlplane.snapshot.Snapshot::fromEnvelope)
        .orElseThrow().provenance();

    assertThat(provenance.getSourceGenerationsMap()).containsKeys(file, "registry");
    assertThat(provenance.getCause()).isEqualTo("source " + file + " generation "
        + provenance.getSourceGenerationsMap().get(file));
    assertThat(json(sb.get("/api/v1/epochs/1")).get("cause").asText()).isEqualTo(provenance.getCause());
  }

  @Test
  void anEpochHeldByOneClientIsSafeInTheSingular() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "c-1", "web")) {
      long epoch = sb.publishNewEpoch();

      await().atMost(Duration.ofSeconds(30)).until(() -> json(sb.get("/api/v1/epochs/" + epoch)).get("status").asText()
          .equals("SAFE"));
      assertThat(json(sb.get("/api/v1/epochs/" + epoch)).get("reason").asText())
          .isEqualTo("held by 1 client with no NACK");
    }
  }

  @Test
  void showsTheDiffTheCauseAndPerGroupProgress() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "c-1", "web")) {
      long epoch = sb.publishNewEpoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/epochs/" + epoch))
          .get("clients").path("web").path("acked").asInt() == 1);

      JsonNode detail = json(sb.get("/api/v1/epochs/" + epoch));
      assertThat(detail.get("parentEpoch").asLong()).isEqualTo(epoch - 1);
      assertThat(detail.get("cause").asText()).startsWith("source file:");
      assertThat(detail.get("sourceGenerations").fieldNames()).toIterable().anyMatch(id -> id.startsWith("file:"));
      assertThat(detail.get("diff").get("changed").get(0).asText()).isEqualTo("ENDPOINT/greeter");
      assertThat(detail.get("diff").get("added").size()).isZero();
      JsonNode transition = detail.get("diff").get("endpoints").get(0);
      assertThat(transition.get("endpoint").asText()).isEqualTo("127.0.0.1:50002");
      assertThat(transition.get("from").isNull()).isTrue();
      assertThat(transition.get("to").asText()).isEqualTo("READY");
      assertThat(detail.get("clients").get("web").get("pending").asInt()).isZero();
      // The rollout's next tick records the group's progress: not necessarily before the ACK is seen.
      await().atMost(Duration.ofSeconds(5)).until(() -> json(sb.get("/api/v1/status")).get("lastSafeByGroup")
          .path("web").asLong() == epoch);
      await().atMost(Duration.ofSeconds(5)).until(() -> json(sb.get("/api/v1/audit?limit=200"))
          .findValuesAsText("target").contains("greeter/127.0.0.1:50002"));
    }
  }
}
