package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Readiness to first traffic (issue 30 item 5) with grpc-java's own xDS client reporting its load
 * every second: an endpoint added READY to a cluster with {@code loadReportingPerEndpoint} (so its
 * requests show in a locality of its own) gets its delay shown in the load view within a few
 * intervals, in {@code signalbox load}, and in the per-cluster histogram.
 */
class FirstTrafficIT {

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static Backends backends;
  static LoadReportingSignalbox sb;

  @BeforeAll
  static void start() throws Exception {
    backends = Backends.start("b1", "b2");
    sb = LoadReportingSignalbox.start(dir, "grpc-first", endpoints(false));
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static String endpoints(boolean withB2) {
    return """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d, zone: a, state: READY }
        """.formatted(backends.port("b1"))
        + (withB2 ? "    - { address: 127.0.0.1, port: %d, zone: a, state: READY }\n".formatted(backends.port("b2"))
            : "");
  }

  private static JsonNode load() throws IOException {
    Admin.Reply reply = sb.admin.get("/api/v1/clusters/greeter/load");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return JSON.readTree(reply.body());
  }

  private static String cli(String... args) {
    java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of(args));
    argv.addAll(java.util.List.of("--server", "http://127.0.0.1:" + sb.server.adminPort()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(argv.toArray(String[]::new));
    assertThat(exit).as("signalbox %s: %s", String.join(" ", args), err).isZero();
    return out.toString();
  }

  @Test
  void anEndpointAddedReadyGetsItsReadinessToFirstTrafficDelayWithinAFewIntervals() throws Exception {
    sb.traffic.startCalling();
    try {
      // The client reports: b1 has a locality of its own and shows work there.
      await().atMost(Duration.ofSeconds(30)).until(() -> load().path("localities").size() == 1);
      long before = sb.server.reconciler().status().epoch();
      String b2 = "127.0.0.1:" + backends.port("b2");

      sb.ws.write("endpoints.yaml", endpoints(true));
      await().atMost(Duration.ofSeconds(30)).until(() -> sb.server.reconciler().status().epoch() > before);
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> "b2".equals(sb.traffic.call()));

      // A few 1 s intervals: the view names b2 with its epoch, when it became READY, and the delay.
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        JsonNode first = load().path("firstTraffic");
        assertThat(first).as(first.toString()).hasSize(1);
        JsonNode r = first.get(0);
        assertThat(r.get("endpoint").asText()).isEqualTo(b2);
        assertThat(r.get("epoch").asLong()).isGreaterThan(before);
        assertThat(r.get("delayMs").isNumber()).as(r.toString()).isTrue();
        assertThat(r.get("seenIn").asText()).isEqualTo("locality");
        Instant readyAt = Instant.parse(r.get("readyAt").asText());
        Instant seenBy = Instant.parse(r.get("seenBy").asText());
        assertThat(Duration.between(readyAt, seenBy).toMillis()).isEqualTo(r.get("delayMs").asLong());
      });

      assertThat(cli("load", "greeter")).contains("READY ENDPOINT").contains(b2).contains("locality");
      Admin.Reply metrics = sb.admin.get("/metrics");
      assertThat(metrics.body()).contains("signalbox_load_first_traffic_seconds_count{cluster=\"greeter\"} 1");
    } finally {
      sb.traffic.stopCalling();
    }
  }
}
