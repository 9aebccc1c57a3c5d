package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.controlplane.telemetry.DemandWindow;
import io.signalbox.store.embedded.EmbeddedDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission demand through leader failovers (issue 41): two replicas, each the built jar in its own
 * process, on one PostgreSQL; three grpc-java xDS clients ({@link DrillClient}), two on r1 and one
 * on r2, each reporting load every second to the replica it is on. A drill kills the leader
 * (SIGKILL), waits for the other to lead, and starts the killed one again under the same replica id:
 * its clients' streams break and come back to it with a catch-up report, and the new leader decides
 * from every replica's rows, a dead one's included. Steady load below the limit, at a fifth of
 * {@link DemandDrillsIT}'s figures so two servers, PostgreSQL and the clients fit on two cores:
 * three backends of 20 rps, {@code maxUtilization: 0.8} (a limit of 48 rps), 30 calls/s offered.
 * Through every drill: 0 calls fail, no replica's status lists an automatic drop, and no epoch
 * either leader published raised one.
 *
 * <p>In {@code mvn verify}: one failover (54 s on 2 cores, most of it the two JVMs and PostgreSQL
 * starting). More: {@code mvn -o -pl control-plane -am verify -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=DemandFailoverDrillsIT -Dsignalbox.failoverDrills=10}
 * (about 20 s a drill).
 */
class DemandFailoverDrillsIT {

  private static final int CAPACITY = 20;
  private static final long PERIOD_MS = 100; // 10 rps per client, 30 in all
  private static final String ADMISSION = "{ maxUtilization: 0.8, step: 10, window: 3s }";
  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final int DRILLS = Integer.getInteger("signalbox.failoverDrills", 1);

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static EmbeddedDatabase postgres;
  static final List<Node> nodes = new ArrayList<>();
  static final List<DrillClient> clients = new ArrayList<>();
  static final List<String> drops = new CopyOnWriteArrayList<>();
  static ScheduledExecutorService traffic;

  /** One replica: its config, its current process, admin API and xDS port. */
  static final class Node {
    final String id;
    final Path config;
    final Admin admin;
    final int xdsPort;
    volatile SignalboxProcess process;

    Node(String id, Path config, Admin admin, int xdsPort) {
      this.id = id;
      this.config = config;
      this.admin = admin;
      this.xdsPort = xdsPort;
    }

    void start() {
      process = SignalboxProcess.start(config, dir.resolve("data-" + id), dir.resolve(id + ".log"));
      await().atMost(Duration.ofSeconds(120)).ignoreExceptions().until(() -> admin.get("/healthz").status() == 200);
    }

    String role() {
      return admin.status().path("role").asText();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    StringBuilder endpoints = new StringBuilder("clusters:\n  greeter:\n");
    for (String b : List.of("b1", "b2", "b3")) {
      endpoints.append("    - { address: 127.0.0.1, port: ").append(backends.port(b)).append(", zone: a, state: READY }\n");
    }
    ws.write("endpoints.yaml", endpoints.toString());
    postgres = EmbeddedDatabase.start(dir.resolve("postgres"), Workspace.freePort());
    for (String id : List.of("r1", "r2")) {
      int xds = Workspace.freePort();
      int admin = Workspace.freePort();
      String yaml = Workspace.shedding(Workspace.config(xds, "ROUND_ROBIN"), xds, CAPACITY, ADMISSION)
          .replace("admin: { port: 0 }", "admin: { port: " + admin + ", address: 127.0.0.1 }")
          .replace("store: { url: memory }", "store: { url: \"" + postgres.jdbcUrl() + "\", user: postgres }\n"
              + "ha: { replicaId: " + id + ", leaseDuration: " + LEASE.toSeconds() + "s, renewInterval: 500ms }");
      assertThat(yaml).contains("ha: {", "admission: ", "loadReportingInterval: 1s");
      Node n = new Node(id, ws.write(id + ".yaml", yaml), new Admin(admin), xds);
      n.start();
      nodes.add(n);
    }
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> nodes.stream().map(Node::role).sorted().toList().equals(List.of("follower", "leader")));
    clients.add(new DrillClient("failover-client-1", nodes.get(0).xdsPort));
    clients.add(new DrillClient("failover-client-2", nodes.get(1).xdsPort));
    clients.add(new DrillClient("failover-client-3", nodes.get(0).xdsPort));
    traffic = Executors.newScheduledThreadPool(1);
    for (DrillClient c : clients) {
      traffic.scheduleAtFixedRate(c::call, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }
    traffic.scheduleAtFixedRate(DemandFailoverDrillsIT::watchDrops, 0, 200, TimeUnit.MILLISECONDS);
  }

  /** Any automatic drop a live replica lists is a drill failed. */
  private static void watchDrops() {
    for (Node n : nodes) {
      try {
        for (JsonNode d : n.admin.status().path("automaticDrops")) {
          drops.add(Instant.now() + " " + n.id + ": " + d);
        }
      } catch (RuntimeException down) {
        // The replica being killed or starting: the other one is watched.
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (traffic != null) {
      traffic.shutdownNow();
    }
    for (DrillClient c : clients) {
      c.close();
    }
    for (Node n : nodes) {
      if (n.process != null) {
        n.process.close();
      }
    }
    if (postgres != null) {
      postgres.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  /** Every client has reported to some replica since {@code since}, as the leader reads it from PostgreSQL. */
  private static boolean everyClientReportsSince(Node leader, Instant since) {
    JsonNode reporting = leader.admin.getJson("/api/v1/clusters/greeter/load").path("clients");
    long fresh = 0;
    for (JsonNode c : reporting) {
      if (!Instant.parse(c.path("lastReport").asText()).isBefore(since)) {
        fresh++;
      }
    }
    return fresh == clients.size();
  }

  private static Node leader() {
    return nodes.stream().filter(n -> {
      try {
        return n.role().equals("leader");
      } catch (RuntimeException down) {
        return false;
      }
    }).findFirst().orElseThrow();
  }

  @Test
  void leaderFailoversUnderSteadyLoadBelowTheLimitDropNothing() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> everyClientReportsSince(leader(), Instant.now().minusSeconds(2)));
    for (int drill = 1; drill <= DRILLS; drill++) {
      Node old = leader();
      Node next = nodes.stream().filter(n -> n != old).findFirst().orElseThrow();
      Instant killed = Instant.now();
      old.process.killJvm();
      await("the other replica leads").atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> next.role().equals("leader"));
      old.start();
      Instant back = Instant.now();
      await("every client reports again").atMost(Duration.ofSeconds(60)).ignoreExceptions()
          .until(() -> everyClientReportsSince(next, back));
      // The demand window (5 intervals, read up to 2.5 late) slides past the failover and the
      // restart; no replica exposes the window, so its documented length is waited out.
      Instant past = Instant.now().plus(INTERVAL.multipliedBy(DemandWindow.INTERVALS + 4));
      await().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().isAfter(past));
      List<String> failures = clients.stream().flatMap(c -> c.failures().stream()).toList();
      System.out.printf("failover drill %d: %s killed at %s, %s leads, %s back at %s; %d calls so far, %d failed,"
              + " %d drops seen%n", drill, old.id, killed, next.id, old.id, back,
          clients.stream().mapToLong(DrillClient::issued).sum(), failures.size(), drops.size());
      assertThat(drops).as("failover drill %d", drill).isEmpty();
      assertThat(failures).as("failover drill %d", drill).isEmpty();
    }
    // No epoch of either term raised a drop (the epochs are in PostgreSQL, every leader's).
    List<String> raised = new ArrayList<>();
    leader().admin.getJson("/api/v1/epochs?limit=1000").forEach(e -> {
      if (e.path("cause").asText().contains("drop raised")) {
        raised.add(e.path("epoch").asText() + ": " + e.path("cause").asText());
      }
    });
    assertThat(raised).isEmpty();
  }
}
