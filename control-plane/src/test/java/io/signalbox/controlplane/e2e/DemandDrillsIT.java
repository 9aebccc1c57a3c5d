package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.telemetry.DemandWindow;
import io.signalbox.store.StoreSettings;
import io.signalbox.yaml.Parsed;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission demand that a restart or a reconnect cannot fool (issue 41), at the figures:
 * three backends of 100 rps, {@code maxUtilization: 0.8} (a limit of 240 rps), 150 calls/s offered
 * by three grpc-java xDS clients (each its own node, its own XdsClient, its own load reports every
 * second). Drills, alternating: the server restarts (closed, its port silent for 1.5 s, started
 * again with no history: a memory store), and every client reconnects at once (a new channel, so a
 * new XdsClient whose first load report starts a new run). Through every drill: 0 calls fail, and
 * no epoch the server publishes carries a {@code signalbox_overload} drop. Before issue 41's fix the
 * first interval after a restart held every client's catch-up report and read 2–3 × the rate.
 *
 * <p>In {@code mvn verify}: 2 drills (one of each). The full 20: {@code mvn -o -pl control-plane -am
 * verify -Dit.test=DemandDrillsIT -Dsignalbox.demandDrills=20 -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false} (about 4 minutes on 2 cores).
 */
class DemandDrillsIT {

  private static final int CAPACITY = 100;
  private static final int CLIENTS = 3;
  private static final long PERIOD_MS = 20; // 50 rps per client, 150 in all
  private static final String ADMISSION = "{ maxUtilization: 0.8, step: 10, window: 3s }";
  private static final int DRILLS = Integer.getInteger("signalbox.demandDrills", 2);

  @TempDir static Path dir;
  static Workspace ws;
  static Path config;
  static SignalboxConfig cfg;
  static final List<Server> backends = new ArrayList<>();
  static final AtomicReference<SignalboxServer> server = new AtomicReference<>();
  static final List<DrillClient> clients = new ArrayList<>();
  static final List<String> drops = new CopyOnWriteArrayList<>();
  static ScheduledExecutorService traffic;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    for (int i = 0; i < 3; i++) {
      backends.add(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
            @Override
            public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
              response.onNext(SimpleResponse.getDefaultInstance());
              response.onCompleted();
            }
          }).build().start());
    }
    StringBuilder endpoints = new StringBuilder("clusters:\n  greeter:\n");
    for (Server b : backends) {
      endpoints.append("    - { address: 127.0.0.1, port: ").append(b.getPort()).append(", zone: a, state: READY }\n");
    }
    ws.write("endpoints.yaml", endpoints.toString());
    int xdsPort = Workspace.freePort();
    config = ws.write("signalbox.yaml", Workspace.shedding(Workspace.config(xdsPort, "ROUND_ROBIN"), xdsPort,
        CAPACITY, ADMISSION));
    cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    startServer();
    for (int i = 1; i <= CLIENTS; i++) {
      clients.add(new DrillClient("drill-client-" + i, xdsPort));
    }
    traffic = Executors.newScheduledThreadPool(1);
    for (DrillClient c : clients) {
      traffic.scheduleAtFixedRate(c::call, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }
    // Every served epoch is watched: a drop raised for one interval is a drill failed.
    traffic.scheduleAtFixedRate(DemandDrillsIT::watchDrop, 0, 50, TimeUnit.MILLISECONDS);
  }

  private static void startServer() {
    server.set(SignalboxServer.start(config, cfg, new StoreSettings("memory", dir.resolve("data"), null, null),
        Clock.systemUTC()));
  }

  private static void watchDrop() {
    SignalboxServer s = server.get();
    Snapshot epoch = s == null ? null : s.reconciler().view().snapshot();
    if (epoch != null && AutomaticDrops.perMillion(epoch, "greeter") > 0) {
      drops.add(Instant.now() + " epoch " + epoch.epoch() + ": "
          + epoch.provenance().getAutomaticDropsMap().get("greeter"));
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
    SignalboxServer s = server.get();
    if (s != null) {
      s.close();
    }
    for (Server b : backends) {
      b.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Every client's load reports reach the server now serving, in its current run. */
  private static boolean everyClientReports(Instant since) {
    var load = server.get().fleetLoad().load("greeter", since);
    return load.clients().stream().filter(c -> !c.lastReport().isBefore(since)).count() == CLIENTS;
  }

  @Test
  void restartsAndReconnectStormsUnderSteadyLoadBelowTheLimitDropNothing() throws Exception {
    // Steady first: a settled window of reports of the 150 rps offered, and nothing dropped.
    await().atMost(Duration.ofSeconds(60)).until(() -> server.get().fleetLoad().demand("greeter", Instant.now())
        .settled());
    System.out.println("steady: " + server.get().fleetLoad().demand("greeter", Instant.now()));
    for (int drill = 1; drill <= DRILLS; drill++) {
      Instant began = Instant.now();
      String kind;
      if (drill % 2 == 1) {
        kind = "server restart";
        SignalboxServer old = server.getAndSet(null);
        old.close();
        Thread.sleep(1_500); // the clients keep calling on what they were last served, and keep counting
        startServer();
      } else {
        kind = "every client reconnects";
        List<ManagedChannel> fresh = new ArrayList<>();
        for (DrillClient c : clients) {
          fresh.add(c.prepare(cfg.xds().port()));
        }
        for (int i = 0; i < CLIENTS; i++) {
          clients.get(i).switchTo(fresh.get(i));
        }
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> everyClientReports(began));
      // Watched until the demand window has slid past the drill (settled, starting an interval after
      // it): every window that held any of it has been decided on, and any drop published, by then.
      Instant past = began.plus(cfg.xds().loadReportingInterval().multipliedBy(2));
      await().atMost(Duration.ofSeconds(60)).until(() -> {
        DemandWindow w = server.get().fleetLoad().demand("greeter", Instant.now());
        return w.settled() && w.from().isAfter(past);
      });
      List<String> failures = clients.stream().flatMap(c -> c.failures().stream()).toList();
      System.out.printf("drill %d (%s): %d calls so far, %d failed, %d epochs with a drop; demand now %s%n", drill,
          kind, clients.stream().mapToLong(DrillClient::issued).sum(), failures.size(), drops.size(),
          server.get().fleetLoad().demand("greeter", Instant.now()));
      assertThat(drops).as("drill %d (%s)", drill, kind).isEmpty();
      assertThat(failures).as("drill %d (%s)", drill, kind).isEmpty();
    }
    DemandWindow last = server.get().fleetLoad().demand("greeter", Instant.now());
    assertThat(last.rps()).as("demand after the drills").isBetween(150 * 0.8, 150 * 1.2);
  }
}
