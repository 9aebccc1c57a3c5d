package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.admission.AdmissionController;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.store.embedded.EmbeddedDatabase;
import io.signalbox.validation.DropRules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change of leader keeps the automatic drop (issue 31; docs/admission-design.md: "a new leader
 * starts each cluster from the drop the last published epoch carries, as if just set"). Two
 * replicas, each the built jar in its own process, on one PostgreSQL the test starts. grpc-java's
 * own xDS client and an EDS recorder connect to the follower, so neither loses its stream when the
 * leader dies; the client's load reports go to the follower too, and the leader reads them from
 * PostgreSQL, summed over replicas.
 *
 * <p>Two of three backends drained: the leader raises a drop. Back: it lowers it one step. Then it
 * is killed (SIGKILL, no shutdown hook). The follower takes over and serves the drop last
 * published, neither lifted nor recomputed from nothing, and the client's picker keeps dropping
 * calls "Dropped: signalbox_overload" through the change; from the reports it now receives itself,
 * the new leader lowers the drop one step per window, to 0, each step an epoch of its term whose
 * cause gives the demand it read.
 *
 * <p>{@link AutomaticSheddingIT#ADMISSION} (maxUtilization 1.0, step 10 points, window 3 s, reports
 * every second), at a fifth of that test's figures so that two servers, PostgreSQL and the client
 * fit on two cores: 20 rps per backend, 40 rps of load (a call every 25 ms at a fixed rate, so
 * demand does not follow latency or drops). 20 rps left sheds half; 60 rps sheds nothing, so once
 * the backends are back the drop can only step down, and any other move is a fault.
 */
class LeaderChangeSheddingIT {

  private static final int CAPACITY = 20;
  private static final Duration PERIOD = Duration.ofMillis(25);
  /** AutomaticSheddingIT.ADMISSION's step (10 points) and window, per million and as a duration. */
  private static final long STEP = 100_000;
  private static final Duration WINDOW = Duration.ofSeconds(3);
  private static final Duration LEASE = Duration.ofSeconds(3);
  /** The config's reconcile.maxDelay: an epoch is created at most this long after the decision it carries. */
  private static final Duration BUILD_DELAY = Duration.ofMillis(500);
  private static final String OVERLOAD = AutomaticDrops.CATEGORY;

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static EmbeddedDatabase postgres;
  static final List<Node> nodes = new ArrayList<>();
  static Node leader;
  static Node follower;
  static EdsWatcher eds;
  static Traffic traffic;

  /** One replica: its process, admin API and xDS port. */
  record Node(String id, SignalboxProcess process, Admin admin, int xdsPort) {}

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    ws.write("endpoints.yaml", endpoints("READY"));
    postgres = EmbeddedDatabase.start(dir.resolve("postgres"), Workspace.freePort());
    for (String id : List.of("r1", "r2")) {
      int xds = Workspace.freePort();
      int admin = Workspace.freePort();
      String yaml = Workspace.shedding(Workspace.config(xds, "ROUND_ROBIN"), xds, CAPACITY,
              AutomaticSheddingIT.ADMISSION)
          .replace("admin: { port: 0 }", "admin: { port: " + admin + ", address: 127.0.0.1 }")
          .replace("store: { url: memory }", "store: { url: \"" + postgres.jdbcUrl() + "\", user: postgres }\n"
              + "ha: { replicaId: " + id + ", leaseDuration: " + LEASE.toSeconds() + "s, renewInterval: 500ms }");
      assertThat(yaml).contains("ha: {", "admin: { port: " + admin, "admission: ");
      Path config = ws.write(id + ".yaml", yaml);
      nodes.add(new Node(id, SignalboxProcess.start(config, dir.resolve("data-" + id), dir.resolve(id + ".log")),
          new Admin(admin), xds));
    }
    for (Node n : nodes) {
      await().atMost(Duration.ofSeconds(120)).ignoreExceptions()
          .until(() -> n.admin().get("/healthz").status() == 200);
    }
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> nodes.stream().map(LeaderChangeSheddingIT::role).sorted().toList()
            .equals(List.of("follower", "leader")));
    leader = nodes.stream().filter(n -> role(n).equals("leader")).findFirst().orElseThrow();
    follower = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();

    GrpcXdsClient xdsClient = GrpcXdsClient.bootstrap(follower.xdsPort(), "grpc-leader-shed");
    eds = EdsWatcher.watch(follower.xdsPort(), "eds-recorder", "greeter");
    traffic = new Traffic(xdsClient.open("greeter"));
    // Load only once the client can call: calls buffered while xDS resolves would arrive as one burst.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> traffic.call() != null);
    traffic.startCallingEvery(PERIOD);
  }

  @AfterAll
  static void stop() throws Exception {
    if (traffic != null) {
      traffic.close();
    }
    if (eds != null) {
      eds.close();
    }
    for (Node n : nodes) {
      n.process().close();
    }
    if (postgres != null) {
      postgres.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @Test
  void aNewLeaderServesTheLastPublishedDropAndLowersItOnlyByTheRules() {
    // The leader reads the client's reports (sent to the follower) from PostgreSQL; no drop yet.
    await("the leader reads the client's reports").atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> leader.admin().getJson("/api/v1/clusters/greeter/load").path("history").size() >= 3);
    assertThat(drop()).isZero();

    // Two of three drained: 20 rps of capacity for 40 rps. The leader raises a drop (about half); the
    // follower serves it to its clients, and its status gives the leader's cause.
    ws.write("endpoints.yaml", endpoints("DRAINING"));
    await("a drop served").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> drop() > 0);
    assertThat(eds.assignments().get(eds.assignments().size() - 1).assignment().getPolicy().getDropOverloadsList())
        .extracting(d -> d.getCategory()).containsExactly(OVERLOAD);
    await("the follower's status lists the leader's automatic drop").atMost(Duration.ofSeconds(10))
        .until(() -> automaticDrop(follower).isObject());
    assertThat(automaticDrop(follower).path("category").asText()).isEqualTo(OVERLOAD);
    assertThat(automaticDrop(follower).path("cause").asText())
        .startsWith("eligible capacity " + CAPACITY + " rps (1 endpoints), limit " + CAPACITY + ".0 rps, demand ")
        .contains(": drop raised to ");
    await("the client drops calls").atMost(Duration.ofSeconds(30))
        .until(() -> dropped(traffic.failures(), Instant.MIN, Instant.MAX) >= 20);

    // Back: demand is under the limit, so the drop can only step down, one step per window.
    ws.write("endpoints.yaml", endpoints("READY"));
    await("the old leader's first step down").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> drop() < highestDrop());
    long lastPublished = drop();
    long raised = highestDrop();
    assertThat(raised).as("a drop large enough for several steps (too little load?)").isGreaterThanOrEqualTo(3 * STEP);
    assertThat(lastPublished).as("the old leader's first step down").isEqualTo(raised - STEP);

    // A crash, not a clean stop: the lease is not given up, the follower waits for it to expire.
    long oldTerm = status(follower).path("term").asLong();
    int sentBeforeKill = eds.assignments().size();
    long succeededAtKill = traffic.succeeded();
    Instant killed = Instant.now();
    leader.process().killJvm();
    AtomicReference<Instant> lastAskedAsFollower = new AtomicReference<>(killed);
    await("the follower leads").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> {
          Instant asked = Instant.now();
          boolean leads = role(follower).equals("leader");
          if (!leads) {
            lastAskedAsFollower.set(asked);
          }
          return leads;
        });
    Instant tookOver = Instant.now();
    Node next = follower;
    assertThat(status(next).path("term").asLong()).isGreaterThan(oldTerm);

    // Right after the change the new leader serves the drop last published, with its cause, to
    // `status` and `why` alike.
    assertThat(drop()).as("drop served right after the takeover").isEqualTo(lastPublished);
    JsonNode served = automaticDrop(next);
    assertThat(served.path("percent").asText()).isEqualTo(DropRules.percent((int) lastPublished));
    assertThat(next.admin().getJson("/api/v1/clusters/greeter/why").path("causes").path(0).path("message").asText())
        .isEqualTo("clients drop " + DropRules.percent((int) lastPublished) + "% of calls as " + OVERLOAD + ": "
            + served.path("cause").asText());

    // The new leader, reading the reports its own client sends, lowers the drop by the rules to 0.
    await("the new leader's first step").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> drop() != lastPublished);
    Instant firstStepSeen = Instant.now();
    long succeededAtFirstStep = traffic.succeeded();
    await("the drop lifted").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> drop() == 0);
    Instant lifted = Instant.now();

    List<EdsWatcher.Assignment> sent = eds.assignments();
    List<EdsWatcher.Assignment> changes = new ArrayList<>();
    long previous = lastPublished;
    for (EdsWatcher.Assignment a : sent.subList(sentBeforeKill, sent.size())) {
      if (a.dropPerMillion(OVERLOAD) != previous) {
        changes.add(a);
        previous = a.dropPerMillion(OVERLOAD);
      }
    }
    List<Long> expected = new ArrayList<>();
    for (long d = lastPublished; d > 0; ) {
      d = Math.max(0, d - STEP);
      expected.add(d);
    }
    Map<Long, JsonNode> epochs = new HashMap<>();
    next.admin().getJson("/api/v1/epochs?limit=1000").forEach(e -> epochs.put(e.path("epoch").asLong(), e));
    System.out.printf("LeaderChangeSheddingIT: raised %s%%, old leader lowered to %s%%, killed at %s; takeover"
            + " after %d ms (still following %d ms after the kill); then %s; lifted %d ms after the kill%n",
        DropRules.percent((int) raised), DropRules.percent((int) lastPublished), killed,
        Duration.between(killed, tookOver).toMillis(), Duration.between(killed, lastAskedAsFollower.get()).toMillis(),
        changes.stream().map(c -> "epoch " + c.version() + ": " + DropRules.percent((int) c.dropPerMillion(OVERLOAD))
            + "% at " + epochs.get(Long.parseLong(c.version())).path("createdAt").asText()).toList(),
        Duration.between(killed, lifted).toMillis());

    // Every version sent after the kill keeps the last published drop until the new leader's
    // first step; from there each step is one `step` down (to 0 at the last), never a jump.
    assertThat(changes).extracting(c -> c.dropPerMillion(OVERLOAD)).as("drops sent after the kill, each change")
        .containsExactlyElementsOf(expected);
    long from = lastPublished;
    Instant previousChange = lastAskedAsFollower.get();
    Duration earliest = WINDOW;
    for (EdsWatcher.Assignment c : changes) {
      JsonNode epoch = epochs.get(Long.parseLong(c.version()));
      long to = c.dropPerMillion(OVERLOAD);
      assertThat(epoch.path("term").asLong()).as("term of epoch %s", c.version()).isGreaterThan(oldTerm);
      // The cause the new leader recorded: the eligible capacity of three and the demand it read.
      assertThat(epoch.path("cause").asText()).as("cause of epoch %s", c.version())
          .contains("eligible capacity " + 3 * CAPACITY + " rps (3 endpoints), limit " + 3 * CAPACITY
              + ".0 rps, demand ")
          .contains("drop lowered from " + AdmissionController.percent((int) from) + " to "
              + AdmissionController.percent((int) to));
      // The first step no sooner than a window after the takeover (lastAskedAsFollower is before
      // it: "as if just set"), each next one a window after the one before; an epoch is created
      // up to a build's delay after the decision it carries, so the later of two may have waited less.
      Instant created = Instant.parse(epoch.path("createdAt").asText());
      assertThat(Duration.between(previousChange, created)).as("epoch %s after the previous change", c.version())
          .isGreaterThanOrEqualTo(earliest);
      previousChange = created;
      earliest = WINDOW.minus(BUILD_DELAY);
      from = to;
    }

    // The client's picker kept dropping through the change: without a leader, and after the takeover
    // until the new leader's first step, about the share last published; nothing failed otherwise.
    List<String> failures = traffic.failures();
    assertThat(failures).as("every failed call").allMatch(f -> f.contains("description=Dropped: " + OVERLOAD + ","));
    assertThat(dropped(failures, killed, tookOver)).as("calls dropped while nobody led").isPositive();
    assertThat(dropped(failures, tookOver, firstStepSeen)).as("calls dropped after the takeover, before the first step")
        .isPositive();
    long droppedUntilFirstStep = dropped(failures, killed, firstStepSeen);
    double share = droppedUntilFirstStep
        / (double) (droppedUntilFirstStep + succeededAtFirstStep - succeededAtKill);
    assertThat(share).as("share dropped from the kill to the first step").isBetween(
        lastPublished / 1e6 - 0.15, lastPublished / 1e6 + 0.15);

    // The reports that decided went to the new leader: its client is the one reporting, fresh.
    JsonNode reporting = next.admin().getJson("/api/v1/clusters/greeter/load").path("clients");
    assertThat(reporting.findValuesAsText("nodeId")).containsExactly("grpc-leader-shed");
    assertThat(reporting.path(0).path("replicaId").asText()).isEqualTo(next.id());
    assertThat(Instant.parse(reporting.path(0).path("lastReport").asText())).isAfter(tookOver);
  }

  private static String endpoints(String drainedOrReady) {
    return "clusters:\n  greeter:\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b1") + ", zone: a, state: READY }\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b2") + ", zone: a, state: " + drainedOrReady + " }\n"
        + "    - { address: 127.0.0.1, port: " + backends.port("b3") + ", zone: a, state: " + drainedOrReady + " }\n";
  }

  private static JsonNode status(Node n) {
    return n.admin().status();
  }

  private static String role(Node n) {
    return status(n).path("role").asText();
  }

  /** The automatic drop the replica's status lists for greeter (missing when none). */
  private static JsonNode automaticDrop(Node n) {
    for (JsonNode d : status(n).path("automaticDrops")) {
      if (d.path("cluster").asText().equals("greeter")) {
        return d;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  /** The automatic drop in the newest EDS version the follower sent, per million. */
  private static long drop() {
    List<EdsWatcher.Assignment> sent = eds.assignments();
    return sent.isEmpty() ? 0 : sent.get(sent.size() - 1).dropPerMillion(OVERLOAD);
  }

  /** The largest automatic drop the follower ever sent, per million. */
  private static long highestDrop() {
    return eds.assignments().stream().mapToLong(a -> a.dropPerMillion(OVERLOAD)).max().orElse(0);
  }

  /** Calls the client's picker dropped as signalbox_overload in [from, to) ({@link Traffic} dates each failure). */
  private static long dropped(List<String> failures, Instant from, Instant to) {
    return failures.stream().filter(f -> f.contains("description=Dropped: " + OVERLOAD + ",")).filter(f -> {
      Instant at = Instant.parse(f.substring(0, f.indexOf(' ')));
      return !at.isBefore(from) && at.isBefore(to);
    }).count();
  }
}
