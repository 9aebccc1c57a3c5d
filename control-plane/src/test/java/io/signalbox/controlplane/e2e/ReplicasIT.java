package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas, each the built jar in its own process, on one PostgreSQL the test starts, each
 * with a raw ADS client of its own. One leads with the same term everywhere; an edit reaches every
 * replica's client with the same version string; a drain sent to a follower takes effect
 * everywhere; any replica lists every client. Then the leader is killed (SIGKILL), and another
 * leads within leaseDuration + 2 s with epochs going on; then the new leader is paused (SIGSTOP)
 * past its lease, another leads, and after SIGCONT the old one follows and has appended nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicasIT {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  @TempDir static Path dir;
  static Workspace ws;
  static EmbeddedDatabase postgres;
  static final Map<String, Node> nodes = new LinkedHashMap<>();

  /** One replica: its process, admin API and the ADS client connected to it. */
  record Node(String id, SignalboxProcess process, Admin admin, int xdsPort, AnsweringAdsClient client) {}

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    postgres = EmbeddedDatabase.start(dir.resolve("postgres"), Workspace.freePort());
    ws.write("endpoints.yaml", endpoints(2));
    for (String id : List.of("r1", "r2", "r3")) {
      int xds = Workspace.freePort();
      int admin = Workspace.freePort();
      Path config = ws.write(id + ".yaml", """
          xds: { port: %d, address: 127.0.0.1 }
          admin: { port: %d, address: 127.0.0.1 }
          store: { url: "%s", user: postgres }
          ha: { replicaId: %s, leaseDuration: %ds, renewInterval: 500ms }
          rollout: { settle: 500ms }
          sources:
            files: [ ./endpoints.yaml ]
          reconcile: { debounce: 50ms, maxDelay: 500ms }
          clusters:
            - name: greeter
              lbPolicy: ROUND_ROBIN
          """.formatted(xds, admin, postgres.jdbcUrl(), id, LEASE.toSeconds()));
      nodes.put(id, new Node(id, SignalboxProcess.start(config, dir.resolve("data-" + id), dir.resolve(id + ".log")),
          new Admin(admin), xds, null));
    }
    for (Node n : List.copyOf(nodes.values())) {
      await().atMost(Duration.ofSeconds(120)).ignoreExceptions()
          .until(() -> n.admin().get("/healthz").status() == 200);
      nodes.put(n.id(), new Node(n.id(), n.process(), n.admin(), n.xdsPort(),
          new AnsweringAdsClient(n.xdsPort(), "client-" + n.id(), "web")));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (Node n : nodes.values()) {
      if (n.client() != null) {
        n.client().close();
      }
      resume(n);
      n.process().close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  private static String endpoints(int count) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 1; i <= count; i++) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(50000 + i).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  private static List<Node> alive() {
    return nodes.values().stream().filter(n -> n.process().isAlive()).toList();
  }

  private static JsonNode status(Node n) {
    return n.admin().status();
  }

  /** The replica every live one names as leader, if they agree and it says so itself. */
  private static Node leader(List<Node> among) {
    Set<String> named = new TreeSet<>();
    for (Node n : among) {
      named.add(status(n).get("leaderId").asText());
    }
    if (named.size() != 1) {
      return null;
    }
    Node leader = nodes.get(named.iterator().next());
    return among.contains(leader) && status(leader).get("role").asText().equals("leader") ? leader : null;
  }

  /** Every client of {@code among} ACKed the same EDS version, of at least {@code epoch}. */
  private static boolean sameEdsVersionEverywhere(List<Node> among, long epoch) {
    Set<String> versions = new TreeSet<>();
    for (Node n : among) {
      String v = n.client().accepted(EDS);
      if (v == null) {
        return false;
      }
      versions.add(v);
    }
    return versions.size() == 1 && Long.parseLong(versions.iterator().next()) >= epoch;
  }

  private static long epoch(Node n) {
    return status(n).get("epoch").asLong();
  }

  private static void signal(Node n, String signal) {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(n.process().pid())).inheritIO().start().waitFor();
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("kill -" + signal + " " + n.process().pid(), e);
    }
  }

  private static void resume(Node n) {
    if (n.process().isAlive()) {
      signal(n, "CONT");
    }
  }

  @Test
  @Order(1)
  void oneLeaderTheSameTermEverywhereAndAnEditReachesEveryReplicasClientWithTheSameVersion() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> leader(alive()) != null);
    Node leader = leader(alive());
    long term = status(leader).get("term").asLong();
    assertThat(alive()).allSatisfy(n -> assertThat(status(n).get("term").asLong()).isEqualTo(term));

    ws.write("endpoints.yaml", endpoints(3));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> epoch(leader) > 0
        && sameEdsVersionEverywhere(alive(), epoch(leader)));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> alive().stream().allMatch(n -> n.admin().get("/readyz").status() == 200));
  }

  @Test
  @Order(2)
  void aDrainSentToAFollowerTakesEffectEverywhereAndAnyReplicaListsEveryClient() {
    Node leader = leader(alive());
    Node follower = alive().stream().filter(n -> n != leader).findFirst().orElseThrow();

    Admin.Reply drained = follower.admin().post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/drain", "");
    assertThat(drained.status()).as(drained.body()).isEqualTo(202);

    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> alive().stream().allMatch(n ->
        n.admin().getJson("/api/v1/clusters/greeter/endpoints").findValuesAsText("state").contains("DRAINING")));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
      JsonNode clients = follower.admin().getJson("/api/v1/clients");
      Map<String, String> byNode = new LinkedHashMap<>();
      clients.forEach(c -> byNode.put(c.get("nodeId").asText(), c.get("replicaId").asText()));
      return byNode.equals(Map.of("client-r1", "r1", "client-r2", "r2", "client-r3", "r3"));
    });
  }

  @Test
  @Order(3)
  void killedWithSigkillTheLeaderIsReplacedWithinItsLeasePlusTwoSecondsAndEpochsGoOn() {
    Node old = leader(alive());
    long term = status(old).get("term").asLong();
    long epoch = epoch(old);

    long killed = System.nanoTime();
    old.process().killJvm();
    List<Node> survivors = alive();
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> leader(survivors) != null);
    Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
    Node next = leader(survivors);
    assertThat(status(next).get("term").asLong()).isGreaterThan(term);
    assertThat(takeover).as("failover").isLessThanOrEqualTo(LEASE.plusSeconds(2));

    ws.write("endpoints.yaml", endpoints(4));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> epoch(next) > epoch
        && sameEdsVersionEverywhere(survivors, epoch(next)));
    System.out.println("ReplicasIT: failover after SIGKILL took " + takeover.toMillis() + " ms");
  }

  @Test
  @Order(4)
  void pausedPastItsLeaseALeaderIsReplacedAndAfterResumingFollowsHavingAppendedNothing() {
    Node paused = leader(alive());
    long pausedTerm = status(paused).get("term").asLong();
    List<Node> others = alive().stream().filter(n -> n != paused).toList();

    signal(paused, "STOP");
    try {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .until(() -> leader(others) != null);
      Node next = leader(others);
      long newTerm = status(next).get("term").asLong();
      assertThat(newTerm).isGreaterThan(pausedTerm);
      ws.write("endpoints.yaml", endpoints(5));
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> sameEdsVersionEverywhere(others,
          epoch(next)) && next.admin().getJson("/api/v1/clusters/greeter/endpoints").size() == 5);
    } finally {
      signal(paused, "CONT");
    }

    await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> status(paused).get("role").asText().equals("follower"));
    Node leader = leader(alive());
    long newTerm = status(leader).get("term").asLong();
    ws.write("endpoints.yaml", endpoints(6));
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> sameEdsVersionEverywhere(alive(),
        epoch(leader)) && paused.admin().getJson("/api/v1/clusters/greeter/endpoints").size() == 6);
    // Every epoch since the pause was appended by a newer term: the resumed leader appended none.
    JsonNode epochs = leader.admin().getJson("/api/v1/epochs?limit=10");
    List<Long> terms = new ArrayList<>();
    for (JsonNode e : epochs) {
      terms.add(e.get("term").asLong());
    }
    assertThat(terms.get(0)).isEqualTo(newTerm);
    assertThat(terms).as("terms of the newest epochs, newest first").isSortedAccordingTo((a, b) -> Long.compare(b, a));
  }
}
