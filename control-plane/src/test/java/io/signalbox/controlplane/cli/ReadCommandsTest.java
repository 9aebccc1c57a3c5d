package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** status, epochs, clients and endpoints against a whole Signalbox, as tables and as the server's JSON. */
class ReadCommandsTest {

  @TempDir static Path dir;
  static RunningSignalbox sb;
  static AnsweringAdsClient web;
  static AnsweringAdsClient api;
  static long epoch;

  @BeforeAll
  static void start() {
    sb = RunningSignalbox.start(dir, 2, "", "");
    sb.publishNewEpoch();
    epoch = sb.publishNewEpoch();
    web = new AnsweringAdsClient(sb.server.xdsPort(), "web-1", "web");
    api = new AnsweringAdsClient(sb.server.xdsPort(), "api-1", "api");
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.xds().clients().stream()
        .filter(c -> c.types().size() == 2).count() == 2);
  }

  @AfterAll
  static void stop() throws Exception {
    web.close();
    api.close();
    sb.close();
  }

  /** A table line's cells: columns are separated by at least two spaces. */
  private static List<String> cells(String line) {
    return Arrays.asList(line.split(" {2,}"));
  }

  private static JsonNode json(String out) throws Exception {
    return new ObjectMapper().readTree(out);
  }

  @Test
  void statusShowsTheEpochsAndWhetherPublishingIsFrozen() {
    Cli.Run run = Cli.against(sb, "status");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.outLines()).map(ReadCommandsTest::cells).contains(
        List.of("epoch", Long.toString(epoch)),
        List.of("frozen", "no"),
        List.of("store", "available"),
        List.of("source", "file:" + dir.resolve("endpoints.yaml") + " FRESH"));
  }

  @Test
  void statusAsJsonIsTheServersJson() throws Exception {
    Cli.Run run = Cli.against(sb, "status", "--output", "json");

    assertThat(run.exit()).isZero();
    JsonNode status = json(run.out());
    assertThat(status.get("epoch").asLong()).isEqualTo(epoch);
    assertThat(status.get("frozen").asBoolean()).isFalse();
    assertThat(run.out()).contains("\n  \"epoch\" : " + epoch + ",\n");
  }

  @Test
  void epochsListsNewestFirstUpToTheLimit() {
    Cli.Run run = Cli.against(sb, "epochs", "--limit", "2");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.outLines()).hasSize(3);
    assertThat(cells(run.outLines().get(0))).containsExactly("EPOCH", "STATUS", "CREATED", "CAUSE", "REASON");
    assertThat(cells(run.outLines().get(1)).get(0)).isEqualTo(Long.toString(epoch));
    assertThat(cells(run.outLines().get(2)).get(0)).isEqualTo(Long.toString(epoch - 1));
  }

  @Test
  void epochsAsJsonKeepsTheContractFields() throws Exception {
    JsonNode epochs = json(Cli.against(sb, "epochs", "-o", "json").out());

    assertThat(epochs).hasSize((int) epoch);
    assertThat(epochs.get(0).get("epoch").asLong()).isEqualTo(epoch);
    assertThat(epochs.get(0).has("status")).isTrue();
  }

  @Test
  void clientsShowsEachClientsGroupAndEpochAndFiltersByGroup() {
    Cli.Run all = Cli.against(sb, "clients");

    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(cells(all.outLines().get(0))).containsExactly("NODE", "GROUP", "ZONE", "EPOCH", "LAG", "NACK");
    assertThat(all.outLines()).hasSize(3);
    // The client's ACK of the newest epoch may still be on its way.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      Cli.Run onlyWeb = Cli.against(sb, "clients", "--group", "web");
      assertThat(onlyWeb.outLines()).hasSize(2);
      assertThat(cells(onlyWeb.outLines().get(1))).containsExactly("web-1", "web", Long.toString(epoch), "0");
    });
  }

  @Test
  void clientsLimitCapsTheRows() throws Exception {
    assertThat(json(Cli.against(sb, "clients", "--limit", "1", "--output", "json").out())).hasSize(1);
  }

  @Test
  void endpointsListsACluster() {
    Cli.Run run = Cli.against(sb, "endpoints", "greeter");

    assertThat(run.exit()).as(run.err()).isZero();
    String origin = "file:" + dir.resolve("endpoints.yaml");
    assertThat(run.outLines()).map(ReadCommandsTest::cells).containsExactly(
        List.of("ENDPOINT", "ZONE", "WEIGHT", "PRIORITY", "STATE", "ORIGIN", "OVERRIDE"),
        List.of("127.0.0.1:50001", "a", "1", "0", "READY", origin),
        List.of("127.0.0.1:50002", "a", "1", "0", "READY", origin),
        List.of("127.0.0.1:50003", "a", "1", "0", "READY", origin),
        List.of("127.0.0.1:50004", "a", "1", "0", "READY", origin));
  }

  @Test
  void endpointsAsJson() throws Exception {
    JsonNode endpoints = json(Cli.against(sb, "endpoints", "greeter", "--output=json").out());

    assertThat(endpoints).hasSize(4);
    assertThat(endpoints.get(0).get("endpoint").asText()).isEqualTo("127.0.0.1:50001");
  }

  @Test
  void loadOfAClusterNobodyReportsForSaysSoAndAsksAboutLoadReporting() throws Exception {
    Cli.Run run = Cli.against(sb, "load", "greeter");

    assertThat(run.exit()).as(run.err()).isZero();
    List<String> lines = run.outLines();
    assertThat(lines.get(0)).isEqualTo(
        "cluster 'greeter': no load report in the last 15 minutes (no client reports for it: is loadReporting on?)");
    assertThat(lines.get(lines.size() - 1)).isEqualTo(
        "correlated errors: no: cluster 'greeter': 0 of 0 localities reporting at least 10 finished requests err "
            + "above 5 %; fewer than 3 localities cannot show correlated errors");
    // Endpoints 50003 and 50004 became READY in epochs 2 and 3: whether they are listed depends on
    // whether the readiness poller's baseline was epoch 1 (it starts with the server). Listed or not,
    // nothing reports, so none of them has been seen.
    List<String> readiness = lines.subList(1, lines.size() - 1);
    if (!readiness.isEmpty()) {
      assertThat(cells(readiness.get(0))).containsExactly("READY ENDPOINT", "EPOCH", "READY AT", "FIRST TRAFFIC",
          "SEEN IN");
      assertThat(readiness.subList(1, readiness.size())).isNotEmpty()
          .allSatisfy(row -> assertThat(cells(row)).contains("not yet seen"));
    }
    JsonNode load = json(Cli.against(sb, "load", "greeter", "-o", "json").out());
    assertThat(load.get("cluster").asText()).isEqualTo("greeter");
    assertThat(load.get("localities")).isEmpty();
  }

  @Test
  void loadOfAnUnknownClusterFailsWithTheClosestName() {
    Cli.Run run = Cli.against(sb, "load", "gretter");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).contains("no cluster 'gretter'; did you mean 'greeter'?");
  }
}
