package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.store.StoreSettings;
import io.signalbox.yaml.Parsed;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Who held what, when (issue 43), with two grpc-xds clients across a NACK and its rollback: the
 * history of each shows the good epoch ACKed, the rejected one NACKed with grpc-java's message,
 * and the rollback's ACKed; the fleet at the time of each NACK shows the client still holding the
 * good epoch, sent the rejected cluster version and refusing it, and now holding the rollback's.
 */
class GrpcXdsHistoryIT {

  private static final List<String> NODES = List.of("history-a", "history-b");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static List<DrillClient> clients = new ArrayList<>();
  static int xdsPort;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1");
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: "
        + backends.port("b1") + ", zone: a }\n");
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN", "{ settle: 500ms }"));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    server = SignalboxServer.start(config, cfg, new StoreSettings("memory", dir.resolve("data"), null, null),
        Clock.systemUTC());
    for (String node : NODES) {
      clients.add(new DrillClient(node, xdsPort));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (DrillClient c : clients) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static TypeStatus cds(String node) {
    return server.xds().clients().stream().filter(c -> c.nodeId().equals(node))
        .map(c -> c.types().get(XdsType.CLUSTER.typeUrl())).filter(t -> t != null).findFirst().orElse(null);
  }

  private static String greeterVersion(long epoch) {
    return server.store().load(epoch).map(Snapshot::fromEnvelope).orElseThrow()
        .resources(XdsType.CLUSTER).get("greeter").version();
  }

  @Test
  void eachClientsHistoryAndTheFleetAtATimeShowTheNackedVersionThenTheRollbacks() throws Exception {
    long good = server.reconciler().status().epoch();
    await().atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().status().lastSafeEpoch() == good);
    await().atMost(Duration.ofSeconds(10)).until(() -> NODES.stream().allMatch(n -> cds(n).ackedEpoch() == good));

    ws.write("signalbox.yaml", Workspace.config(xdsPort, "MAGLEV", "{ settle: 500ms }"));
    long rejected = good + 1;
    await().atMost(Duration.ofSeconds(20)).until(() -> server.reconciler().status().epoch() > rejected);
    long rollback = server.reconciler().status().epoch();
    await().atMost(Duration.ofSeconds(20)).until(() -> NODES.stream().allMatch(n -> cds(n).ackedEpoch() == rollback));
    String goodVersion = greeterVersion(good);
    String rejectedVersion = greeterVersion(rejected);
    assertThat(rejectedVersion).isNotEqualTo(goodVersion);
    // The rollback restores the last safe cluster: the same content, the same resource version.
    assertThat(greeterVersion(rollback)).isEqualTo(goodVersion);

    for (String node : NODES) {
      // Written in batches off the stream threads: there once the rollback's ACK is.
      JsonNode history = await().atMost(Duration.ofSeconds(10)).until(() -> json("history", node, "--type", "CDS"),
          h -> responses(h).stream().anyMatch(r -> r.path("epoch").asLong() == rollback && r.path("answer").asText()
              .equals("ACK")));
      List<JsonNode> cds = responses(history);
      assertThat(cds).extracting(r -> r.path("type").asText()).containsOnly("CLUSTER");
      assertThat(cds).extracting(r -> r.path("epoch").asLong() + " " + r.path("answer").asText())
          .containsSubsequence(good + " ACK", rejected + " NACK", rollback + " ACK");
      JsonNode nack = cds.stream().filter(r -> r.path("answer").asText().equals("NACK")).findFirst().orElseThrow();
      assertThat(nack.path("message").asText()).contains("unsupported lb policy: MAGLEV");
      assertThat(nack.path("resources")).extracting(JsonNode::asText).containsExactly("greeter");
      String nackedAt = nack.path("answeredAt").asText();

      // At the NACK: served the rejected epoch, the client held the good one, refusing the new cluster.
      JsonNode refusing = json("fleet", "--at", nackedAt, "--holding", "CLUSTER/greeter@" + rejectedVersion);
      assertThat(refusing.path("epoch").asLong()).isEqualTo(rejected);
      JsonNode stream = streamOf(refusing, node);
      assertThat(stream.path("epoch").asLong()).isEqualTo(good);
      assertThat(stream.path("converged").asBoolean()).isFalse();
      assertThat(stream.path("types").path("CLUSTER").path("nack").path("message").asText())
          .contains("unsupported lb policy: MAGLEV");
      assertThat(refusing.path("holding").path("clients")).extracting(JsonNode::asText).doesNotContain(node);
      assertThat(refusing.path("holding").path("refused")).extracting(JsonNode::asText).contains(node);
      JsonNode holdingGood = json("fleet", "--at", nackedAt, "--holding", "CLUSTER/greeter@" + goodVersion);
      assertThat(holdingGood.path("holding").path("clients")).extracting(JsonNode::asText).contains(node);
    }

    // Now: every client holds the rollback epoch, and with it the good cluster version again.
    JsonNode now = await().atMost(Duration.ofSeconds(10)).until(
        () -> json("fleet", "--at", "0s", "--holding", "CLUSTER/greeter@" + goodVersion.substring(0, 12)),
        f -> f.path("converged").asInt() == NODES.size());
    assertThat(now.path("epoch").asLong()).isEqualTo(rollback);
    assertThat(now.path("holding").path("clients")).extracting(JsonNode::asText).containsExactlyElementsOf(NODES);
    assertThat(now.path("holding").path("refused")).isEmpty();
    for (String node : NODES) {
      assertThat(streamOf(now, node).path("epoch").asLong()).isEqualTo(rollback);
    }

    String text = cli("history", NODES.get(0), "--type", "CDS");
    assertThat(text).contains("NACK").contains("unsupported lb policy: MAGLEV");
    assertThat(cli("fleet", "--at", "0s")).contains("epoch " + rollback + " served, held by " + NODES.size() + " of "
        + NODES.size());
  }

  private static List<JsonNode> responses(JsonNode history) {
    List<JsonNode> out = new ArrayList<>();
    history.path("streams").forEach(s -> s.path("responses").forEach(out::add));
    return out;
  }

  private static JsonNode streamOf(JsonNode fleet, String node) {
    List<JsonNode> found = new ArrayList<>();
    fleet.path("streams").forEach(s -> {
      if (s.path("nodeId").asText().equals(node)) {
        found.add(s);
      }
    });
    assertThat(found).as("streams of %s in %s", node, fleet).hasSize(1);
    return found.get(0);
  }

  private static JsonNode json(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(args));
    argv.addAll(List.of("--output", "json"));
    return JSON.readTree(cli(argv.toArray(String[]::new)));
  }

  /** Runs the CLI against the server; what it printed (it must succeed). */
  private static String cli(String... args) {
    List<String> argv = new ArrayList<>(List.of(args));
    argv.addAll(List.of("--server", "http://127.0.0.1:" + server.adminPort()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(argv.toArray(String[]::new));
    assertThat(exit).as("signalbox %s: %s", String.join(" ", args), err).isZero();
    return out.toString();
  }
}
