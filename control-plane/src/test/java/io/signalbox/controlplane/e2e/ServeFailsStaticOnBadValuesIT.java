package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} (the built jar) restarted with one bad endpoint value ({@code weight: 0}) or a
 * duplicate address:port in its endpoint file: the file source refuses such a file as it refuses a
 * half-written one, so a restart serves the stored epoch and reports the file rather than exiting 2
 * (issue 29: a typo plus a pod restart was a crash loop).
 */
class ServeFailsStaticOnBadValuesIT {

  private static final String VALID = """
      clusters:
        greeter:
          - { address: 127.0.0.1, port: 50001 }
          - { address: 127.0.0.1, port: 50002 }
      """;

  @TempDir
  Path dir;

  private String config(int xds, int admin) {
    return """
        xds: { port: %d }
        admin: { port: %d }
        store: { url: embedded, dataDir: ./data }
        sources:
          files: [ ./endpoints.yaml ]
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: greeter
        clusters:
          - name: greeter
            connectTimeout: 1s
        """.formatted(xds, admin);
  }

  @Test
  void aRestartWithABadWeightAndADuplicateServesTheStoredEpochAndSaysWhy() throws Exception {
    Workspace ws = new Workspace(dir);
    Admin admin = new Admin(Workspace.freePort());
    ws.write("signalbox.yaml", config(Workspace.freePort(), admin.port()));
    ws.write("endpoints.yaml", VALID);
    long stored;
    try (SignalboxProcess first = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
        assertThat(first.isAlive()).as(first.logTail()).isTrue();
        assertThat(admin.status().get("epoch").asLong()).isPositive();
      });
      stored = admin.status().get("epoch").asLong();
      first.stop();
    }
    Files.writeString(ws.file("endpoints.yaml"), VALID.replace("port: 50002 }", "port: 50002, weight: 0 }")
        + "    - { address: 127.0.0.1, port: 50001, zone: b }\n");

    try (SignalboxProcess second = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
        assertThat(second.isAlive()).as(second.logTail()).isTrue();
        assertThat(admin.get("/readyz").status()).isEqualTo(200);
      });
      JsonNode status = admin.status();
      assertThat(status.get("epoch").asLong()).isEqualTo(stored);
      String source = "file:" + ws.file("endpoints.yaml");
      assertThat(status.get("sources").get(source).asText()).isEqualTo("FAILED");
      String origin = source + ": endpoints of cluster 'greeter'";
      assertThat(status.get("sourceProblems").get(source)).extracting(JsonNode::asText).containsExactly(
          origin + "[1] (127.0.0.1:50002): weight: must be >= 1, was 0 [range]",
          origin + "[2] (127.0.0.1:50001): duplicate endpoint 127.0.0.1:50001 (also at [0]) [duplicate.endpoint]");

      Files.writeString(ws.file("endpoints.yaml"), VALID.replace("50002", "50003"));
      await().atMost(Duration.ofSeconds(30)).until(() -> admin.status().get("epoch").asLong() > stored);
      assertThat(admin.status().get("sources").get(source).asText()).isEqualTo("FRESH");
    }
  }
}
