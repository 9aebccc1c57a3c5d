package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.store.StoreSettings;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.yaml.Parsed;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * An incident's worth of events, made to happen against one replica on PostgreSQL with a real
 * grpc-xds client, read back from {@code GET /api/v1/timeline} and {@code signalbox timeline} in
 * the order they happened, with who did each and why: the replica winning the lease, a new epoch
 * from an endpoint change, a mass removal held and then confirmed, a drain, a change the client
 * NACKs and its automatic rollback, the endpoint file turning invalid and valid again, and a
 * second replica leading once the first shuts down.
 */
class TimelineIT {

  private static final String REPLICA = "timeline-r1";
  private static final String NODE = "timeline-client";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static EmbeddedDatabase postgres;
  static SignalboxServer server;
  static GrpcXdsClient xds;
  static ManagedChannel channel;
  static Admin admin;
  static int xdsPort;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3", "b4");
    postgres = EmbeddedDatabase.start(dir.resolve("postgres"), Workspace.freePort());
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints("b1", "b2", "b3"));
    server = startReplica(ws.write("signalbox.yaml", config("ROUND_ROBIN")));
    admin = new Admin(server.adminPort());
    xds = GrpcXdsClient.bootstrap(xdsPort, NODE);
    channel = xds.channel("greeter");
  }

  @AfterAll
  static void stop() throws Exception {
    if (xds != null) {
      xds.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  /** The end-to-end tests' config, as one replica of a control plane on PostgreSQL. */
  private static String config(String lbPolicy) {
    return config(lbPolicy, REPLICA, xdsPort);
  }

  private static String config(String lbPolicy, String replicaId, int port) {
    return Workspace.config(port, lbPolicy, "{ settle: 500ms }").replace("store: { url: memory }\n",
        "ha: { replicaId: " + replicaId + ", leaseDuration: 2s, renewInterval: 500ms }\n");
  }

  private static SignalboxServer startReplica(Path config) {
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    return SignalboxServer.start(config, cfg,
        new StoreSettings(postgres.jdbcUrl(), dir.resolve("data-" + cfg.ha().replicaId()), EmbeddedDatabase.USER, ""),
        Clock.systemUTC());
  }

  private static String endpoints(String... names) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (String name : names) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(backends.port(name)).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static long epoch() {
    return server.reconciler().status().epoch();
  }

  /** Writes the endpoint file and waits for the epoch it makes. */
  private static long publish(String endpoints) {
    long before = epoch();
    ws.write("endpoints.yaml", endpoints);
    await().atMost(Duration.ofSeconds(20)).until(() -> epoch() > before);
    return epoch();
  }

  private static JsonNode timeline(String query) throws Exception {
    return timeline(admin, query);
  }

  private static JsonNode timeline(Admin replica, String query) throws Exception {
    Admin.Reply reply = replica.get("/api/v1/timeline" + query);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return new ObjectMapper().readTree(reply.body());
  }

  /** kind, action, actor and target of each event, with what the test checks of its reason. */
  private static List<String> lines(JsonNode timeline) {
    List<String> out = new ArrayList<>();
    for (JsonNode e : timeline.path("events")) {
      out.add(e.path("kind").asText() + " " + e.path("action").asText() + " " + e.path("actor").asText() + " "
          + e.path("target").asText() + " | " + e.path("reason").asText());
    }
    return out;
  }

  @Test
  void listsAnIncidentInOrderWithWhoAndWhy() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> !call().isEmpty());
    long first = epoch();
    await().atMost(Duration.ofSeconds(20)).until(() -> server.reconciler().status().lastSafeEpoch() == first);

    // A new epoch from an endpoint change.
    long added = publish(endpoints("b1", "b2", "b3", "b4"));
    // Three of four endpoints gone at once: held until an operator confirms it.
    ws.write("endpoints.yaml", endpoints("b1"));
    await().atMost(Duration.ofSeconds(20)).until(() -> admin.get("/api/v1/held").body().contains("greeter"));
    admin.sendJson("POST", "/api/v1/clusters/greeter/confirm", "{\"reason\": \"scale down to one\"}", 202);
    await().atMost(Duration.ofSeconds(20)).until(() -> admin.get("/api/v1/held").body().equals("[]"));
    publish(endpoints("b1", "b2"));
    // A drain, with its reason.
    long beforeDrain = epoch();
    admin.sendJson("POST", "/api/v1/clusters/greeter/endpoints/127.0.0.1:" + backends.port("b2") + "/drain",
        "{\"reason\": \"kernel update\"}", 202);
    await().atMost(Duration.ofSeconds(20)).until(() -> epoch() > beforeDrain);
    long safe = epoch();
    await().atMost(Duration.ofSeconds(20)).until(() -> server.reconciler().status().lastSafeEpoch() == safe);
    // A change grpc-xds NACKs (it does not know MAGLEV), rolled back by the control plane.
    ws.write("signalbox.yaml", config("MAGLEV"));
    long rejected = safe + 1;
    await().atMost(Duration.ofSeconds(20)).until(() -> epoch() > rejected);
    // NACK events are stored by the client status recorder, every 2 s.
    await().atMost(Duration.ofSeconds(20)).until(() -> timeline("?since=10m").toString().contains("\"kind\":\"nack\""));
    // The endpoint file made invalid, then fixed.
    ws.write("endpoints.yaml", "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: 70000 }\n");
    await().atMost(Duration.ofSeconds(20)).until(() -> timeline("?since=10m").toString().contains("source-failed"));
    ws.write("endpoints.yaml", endpoints("b1", "b2"));
    await().atMost(Duration.ofSeconds(20)).until(() -> timeline("?since=10m").toString().contains("source-recovered"));

    List<String> lines = lines(timeline("?since=10m"));
    String b2 = "greeter/127.0.0.1:" + backends.port("b2");
    assertThat(lines).as(String.join("\n", lines)).containsSubsequence(
        "leader lead signalbox " + REPLICA + " | won the leader lease with term "
            + lineStartingWith(lines, "leader lead signalbox " + REPLICA + " | won the leader lease with term "),
        // Its cause names the election, the source or both, as they came.
        "epoch publish signalbox epoch " + first + " | "
            + lineStartingWith(lines, "epoch publish signalbox epoch " + first + " | "),
        "epoch publish signalbox epoch " + added + " | " + lineStartingWith(lines, "epoch publish signalbox epoch " + added + " | "),
        "hold hold signalbox cluster greeter | " + lineStartingWith(lines, "hold hold signalbox cluster greeter | "),
        "confirmation confirm anonymous cluster greeter | scale down to one",
        "hold release signalbox cluster greeter | released by an operator's confirmation (guard.mass-removal)",
        "drain drain anonymous " + b2 + " | kernel update",
        "epoch publish signalbox epoch " + rejected + " | "
            + lineStartingWith(lines, "epoch publish signalbox epoch " + rejected + " | "),
        "nack nack " + NODE + " epoch " + rejected + " Cluster | "
            + lineStartingWith(lines, "nack nack " + NODE + " epoch " + rejected + " Cluster | "),
        "rollback rollback signalbox epochs " + rejected + ".." + rejected + " | "
            + lineStartingWith(lines, "rollback rollback signalbox epochs " + rejected + ".." + rejected + " | "),
        "epoch publish signalbox epoch " + (rejected + 1) + " | automatic rollback of epochs " + rejected + ".."
            + rejected + " to epoch " + safe + " (NACKed)",
        "source source-failed signalbox " + lineStartingWith(lines, "source source-failed signalbox "),
        "source source-recovered signalbox " + lineStartingWith(lines, "source source-recovered signalbox "));
    assertThat(lineStartingWith(lines, "epoch publish signalbox epoch " + rejected + " | "))
        .as("the rejected epoch says why").contains("REJECTED").contains("MAGLEV");
    assertThat(lineStartingWith(lines, "nack nack " + NODE)).contains("MAGLEV");
    assertThat(lineStartingWith(lines, "source source-failed signalbox ")).contains("FAILED").contains("port");
    assertThat(lineStartingWith(lines, "source source-recovered signalbox ")).contains("FRESH again (was FAILED)");

    // The CLI prints the same list, oldest first.
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute("timeline", "--since", "10m", "--server", "http://127.0.0.1:" + server.adminPort());
    assertThat(exit).as(err.toString()).isZero();
    List<String> printed = out.toString().lines().toList();
    assertThat(printed.get(0)).startsWith("TIME").contains("KIND").contains("ACTOR").contains("REASON");
    assertThat(printed).anyMatch(l -> l.contains("confirmation") && l.contains("anonymous")
        && l.contains("scale down to one"));
    int nack = indexOf(printed, NODE);
    int rollback = indexOf(printed, "epochs " + rejected + ".." + rejected);
    assertThat(nack).as("the NACK, before its rollback").isPositive().isLessThan(rollback);

    // A change of leader: a second replica leads once the first shuts down; either replica reads the timeline.
    SignalboxServer second = startReplica(ws.write("r2.yaml", config("MAGLEV", "timeline-r2", Workspace.freePort())));
    try {
      Admin secondAdmin = new Admin(second.adminPort());
      server.close();
      server = null;
      await().atMost(Duration.ofSeconds(30)).until(() -> second.reconciler().leading());
      await().atMost(Duration.ofSeconds(10)).until(() -> lines(timeline(secondAdmin, "?since=10m")).stream()
          .anyMatch(l -> l.startsWith("leader lead signalbox timeline-r2 | ")));
      List<String> after = lines(timeline(secondAdmin, "?since=10m"));
      assertThat(after).as(String.join("\n", after)).containsSubsequence(
          "source source-recovered signalbox " + lineStartingWith(after, "source source-recovered signalbox "),
          "leader step-down signalbox " + REPLICA + " | shutting down",
          "leader lead signalbox timeline-r2 | won the leader lease with term "
              + lineStartingWith(after, "leader lead signalbox timeline-r2 | won the leader lease with term "));
    } finally {
      second.close();
    }
  }

  private static int indexOf(List<String> lines, String part) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(part)) {
        return i;
      }
    }
    return -1;
  }

  /** The rest of the one line starting with {@code prefix}, so a subsequence can name it whole. */
  private static String lineStartingWith(List<String> lines, String prefix) {
    return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> l.substring(prefix.length()))
        .orElse("(no line starting with '" + prefix + "')");
  }
}
