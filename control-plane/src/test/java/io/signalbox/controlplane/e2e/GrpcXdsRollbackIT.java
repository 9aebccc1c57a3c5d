package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.store.EpochStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change grpc-xds rejects is rolled back: the client NACKs once, the epoch becomes REJECTED, a
 * new epoch restores the cluster from the last safe one, the client ACKs it, and no RPC fails.
 */
class GrpcXdsRollbackIT {

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static int xdsPort;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1");
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: "
        + backends.port("b1") + ", zone: a }\n");
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN", "{ settle: 500ms }"));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-rollback");
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

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static TypeStatus cds() {
    return server.xds().clients().stream()
        .filter(c -> c.nodeId().equals("grpc-rollback"))
        .map(c -> c.types().get(XdsType.CLUSTER.typeUrl()))
        .filter(t -> t != null)
        .findFirst().orElse(null);
  }

  @Test
  void aNackedEpochIsRejectedAndRolledBackWhileRpcsKeepSucceeding() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call().equals("b1"));
    long good = server.reconciler().status().epoch();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().lastSafeEpoch() == good);

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    Thread traffic = new Thread(() -> {
      while (running.get()) {
        try {
          call();
          ok.incrementAndGet();
        } catch (RuntimeException e) {
          failed.incrementAndGet();
        }
      }
    }, "traffic");
    traffic.start();
    try {
      ws.write("signalbox.yaml", Workspace.config(xdsPort, "MAGLEV", "{ settle: 500ms }"));
      await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > good + 1);
      long rollback = server.reconciler().status().epoch();
      long rejected = good + 1;

      await().atMost(Duration.ofSeconds(10)).until(() -> cds().ackedEpoch() == rollback);
      assertThat(cds().nacks()).isEqualTo(1);
      assertThat(cds().nack().snapshotEpoch()).isEqualTo(rejected);
      assertThat(server.store().epoch(rejected).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
      assertThat(server.store().epoch(rejected).orElseThrow().reason()).contains("unsupported lb policy: MAGLEV");
      // The rollback epoch restored exactly the last safe cluster.
      assertThat(server.xds().current().resources(XdsType.CLUSTER).get("greeter").version())
          .isEqualTo(server.store().load(good).map(e -> io.signalbox.controlplane.snapshot.Snapshot.fromEnvelope(e)
              .resources(XdsType.CLUSTER).get("greeter").version()).orElseThrow());
      await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().lastSafeEpoch() == rollback);
      int before = ok.get();
      await().atMost(Duration.ofSeconds(5)).until(() -> ok.get() > before + 20);
    } finally {
      running.set(false);
      traffic.join(10_000);
    }
    assertThat(failed.get()).isZero();
    assertThat(cds().nacks()).as("the rejected version was never sent again").isEqualTo(1);
  }
}
