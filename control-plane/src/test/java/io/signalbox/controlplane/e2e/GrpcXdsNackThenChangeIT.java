package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.store.EpochStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The case the rollout used to get wrong: grpc-xds NACKs epoch N, and an unrelated endpoint change
 * is published as N+1 before the rollout check runs. N+1 carries the refused cluster too, so the
 * client holds neither; both become REJECTED, never SAFE, and the rollback epoch restores the
 * cluster from the last safe epoch while keeping the new endpoint. No RPC fails.
 *
 * <p>The rollout check runs only when the test says ({@code checkInterval: 1h}), so the order of
 * events is exact rather than a race against a timer.
 */
class GrpcXdsNackThenChangeIT {

  private static final String ROLLOUT = "{ settle: 300ms, checkInterval: 1h }";

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static int xdsPort;
  static final Set<Long> everSafe = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2");
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints("b1"));
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN", ROLLOUT));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-nack-then-change");
    channel = client.channel("greeter");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static String endpoints(String... names) {
    StringBuilder s = new StringBuilder("clusters:\n  greeter:\n");
    for (String n : names) {
      s.append("    - { address: 127.0.0.1, port: ").append(backends.port(n)).append(", zone: a }\n");
    }
    return s.toString();
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static ClientStatus client() {
    return server.xds().clients().stream().filter(c -> c.nodeId().equals("grpc-nack-then-change"))
        .findFirst().orElse(null);
  }

  private static long epoch() {
    return server.reconciler().status().epoch();
  }

  /** One rollout check, remembering every epoch it ever called SAFE. */
  private static long check() {
    server.rollout().check();
    long safe = server.reconciler().status().lastSafeEpoch();
    everSafe.add(safe);
    return safe;
  }

  private static String clusterVersion(long epoch) {
    return server.store().load(epoch).map(Snapshot::fromEnvelope).orElseThrow()
        .resources(XdsType.CLUSTER).get("greeter").version();
  }

  @Test
  void anEpochBuiltOnTopOfARefusedOneIsRejectedTooAndTheRollbackKeepsTheNewEndpoint() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call().equals("b1"));
    long good = epoch();
    await().atMost(Duration.ofSeconds(20)).until(() -> check() == good);

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    Set<String> answered = ConcurrentHashMap.newKeySet();
    Thread traffic = new Thread(() -> {
      while (running.get()) {
        try {
          answered.add(call());
          ok.incrementAndGet();
        } catch (RuntimeException e) {
          failed.incrementAndGet();
        }
      }
    }, "traffic");
    traffic.start();
    try {
      // Epoch N: a cluster grpc-xds refuses.
      ws.write("signalbox.yaml", Workspace.config(xdsPort, "MAGLEV", ROLLOUT));
      await().atMost(Duration.ofSeconds(10)).until(() -> epoch() > good);
      long refused = epoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> client().types().get(XdsType.CLUSTER.typeUrl()).nacks() == 1);

      // Epoch N+1, before any rollout check: an unrelated endpoint change on top of it.
      ws.write("endpoints.yaml", endpoints("b1", "b2"));
      await().atMost(Duration.ofSeconds(10)).until(() -> epoch() > refused);
      long onTop = epoch();
      assertThat(clusterVersion(onTop)).as("N+1 still carries the refused cluster").isEqualTo(clusterVersion(refused));
      await().atMost(Duration.ofSeconds(10)).until(() -> client().types().get(XdsType.ENDPOINT.typeUrl()).ackedEpoch()
          == onTop);
      ClientStatus c = client();
      assertThat(c.holds(onTop)).as("it ACKed N+1's endpoints but refuses its cluster").isFalse();
      assertThat(c.types().get(XdsType.CLUSTER.typeUrl()).refusing()).containsKey("greeter");

      // The first check sees a standing NACK of a version newer than the last safe epoch.
      check();
      await().atMost(Duration.ofSeconds(10)).until(() -> epoch() > onTop);
      long rollback = epoch();
      assertThat(server.store().epoch(refused).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
      assertThat(server.store().epoch(onTop).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
      assertThat(server.store().epoch(onTop).orElseThrow().reason()).contains("unsupported lb policy: MAGLEV");
      assertThat(clusterVersion(rollback)).as("restored from the last safe epoch").isEqualTo(clusterVersion(good));

      await().atMost(Duration.ofSeconds(10)).until(() -> client().holds(rollback));
      await().atMost(Duration.ofSeconds(20)).until(() -> check() == rollback);
      await().atMost(Duration.ofSeconds(20)).until(() -> answered.contains("b2"));
      int before = ok.get();
      await().atMost(Duration.ofSeconds(5)).until(() -> ok.get() > before + 20);
      assertThat(everSafe).as("neither the refused epoch nor the one on top of it was ever SAFE")
          .doesNotContain(refused, onTop);
    } finally {
      running.set(false);
      traffic.join(10_000);
    }
    assertThat(failed.get()).isZero();
    assertThat(client().types().get(XdsType.CLUSTER.typeUrl()).nacks())
        .as("the refused version was never sent again").isEqualTo(1);
  }
}
