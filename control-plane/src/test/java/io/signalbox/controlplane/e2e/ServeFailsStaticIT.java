package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} (the built jar) restarted while an input is invalid — an endpoint file half-written
 * when the process died (which the crash drill hit at full scale), a bad endpoint value, a config
 * route to a cluster that does not exist: it serves the stored epoch and reports the problem,
 * instead of refusing to start. With nothing stored, or with settings it cannot start on, it still
 * refuses (exit 2).
 */
class ServeFailsStaticIT {

  private static final String VALID = """
      clusters:
        greeter:
          - { address: 127.0.0.1, port: 50001 }
          - { address: 127.0.0.1, port: 50002 }
      """;
  /** Cut in the middle of a flow mapping, as an in-place write interrupted half-way leaves it. */
  private static final String HALF_WRITTEN = """
      clusters:
        greeter:
          - { address: 127.0.0.1, port: 50001 }
          - { address: 127.0.0.1, po""";

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
  void aRestartWithAHalfWrittenEndpointFileServesTheStoredEpochAndSaysWhy() throws Exception {
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
    Files.writeString(ws.file("endpoints.yaml"), HALF_WRITTEN);

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

      Files.writeString(ws.file("endpoints.yaml"), VALID.replace("50002", "50003"));
      await().atMost(Duration.ofSeconds(30)).until(() -> admin.status().get("epoch").asLong() > stored);
      assertThat(admin.status().get("sources").get(source).asText()).isEqualTo("FRESH");
    }
  }

  /** Starts once on valid files, so the store holds an epoch; returns it. */
  private long storeAnEpoch(Workspace ws, Admin admin) throws Exception {
    try (SignalboxProcess first = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
        assertThat(first.isAlive()).as(first.logTail()).isTrue();
        assertThat(admin.status().get("epoch").asLong()).isPositive();
      });
      long stored = admin.status().get("epoch").asLong();
      first.stop();
      return stored;
    }
  }

  @Test
  void aRestartWithAnInvalidEndpointValueServesTheStoredEpochAndReportsIt() throws Exception {
    Workspace ws = new Workspace(dir);
    Admin admin = new Admin(Workspace.freePort());
    ws.write("signalbox.yaml", config(Workspace.freePort(), admin.port()));
    ws.write("endpoints.yaml", VALID);
    long stored = storeAnEpoch(ws, admin);
    Files.writeString(ws.file("endpoints.yaml"), VALID.replace("port: 50002 }", "port: 50002, weight: 0 }"));

    try (SignalboxProcess second = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
        assertThat(second.isAlive()).as(second.logTail()).isTrue();
        assertThat(admin.get("/readyz").status()).isEqualTo(200);
      });
      JsonNode status = admin.status();
      assertThat(status.get("epoch").asLong()).isEqualTo(stored);
      assertThat(status.get("lastRejection").get("violations").toString()).contains("weight").contains("was 0");

      Files.writeString(ws.file("endpoints.yaml"), VALID.replace("50002", "50003"));
      await().atMost(Duration.ofSeconds(30)).until(() -> admin.status().get("epoch").asLong() > stored);
    }
  }

  @Test
  void aRestartWithARouteToAnUnknownClusterServesTheStoredEpochButBadSettingsStillExit2() throws Exception {
    Workspace ws = new Workspace(dir);
    Admin admin = new Admin(Workspace.freePort());
    int xds = Workspace.freePort();
    String good = config(xds, admin.port());
    ws.write("signalbox.yaml", good);
    ws.write("endpoints.yaml", VALID);
    long stored = storeAnEpoch(ws, admin);
    Files.writeString(ws.file("signalbox.yaml"), good.replace("cluster: greeter", "cluster: greter"));

    try (SignalboxProcess second = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
        assertThat(second.isAlive()).as(second.logTail()).isTrue();
        assertThat(admin.get("/readyz").status()).isEqualTo(200);
      });
      JsonNode status = admin.status();
      assertThat(status.get("epoch").asLong()).isEqualTo(stored);
      assertThat(status.get("lastRejection").get("violations").toString()).contains("greter");
      second.stop();
    }

    Files.writeString(ws.file("signalbox.yaml"), good.replace("xds: { port: " + xds + " }", "xds: { port: 70000 }"));
    try (SignalboxProcess third = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      OptionalInt exit = third.awaitExit(Duration.ofSeconds(90));
      assertThat(exit).as(third.logTail()).hasValue(2);
      assertThat(third.logTail()).contains("xds.port: must be from 1 to 65535 (0 picks a free port), was 70000");
    }
  }

  @Test
  void aFirstStartWithAnInvalidEndpointFileIsRefusedWithExitCode2() throws Exception {
    Workspace ws = new Workspace(dir);
    ws.write("signalbox.yaml", config(Workspace.freePort(), Workspace.freePort()));
    ws.write("endpoints.yaml", HALF_WRITTEN);
    try (SignalboxProcess process = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"),
        ws.file("signalbox.log"))) {
      OptionalInt exit = process.awaitExit(Duration.ofSeconds(90));
      assertThat(exit).as(process.logTail()).hasValue(2);
      assertThat(process.logTail()).contains("is invalid (1 problem):").contains("endpoints.yaml: line 4");
    }
  }
}
