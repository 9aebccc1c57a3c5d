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
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster grpc-xds rejects but Envoy accepts (grpc-java 1.85 NACKs {@code lb_policy: MAGLEV}):
 * exactly one NACK, no re-send loop, and the client keeps its previous configuration.
 */
class GrpcXdsNackIT {

  /** This test is about the NACK itself; GrpcXdsRollbackIT covers what follows it by default. */
  private static final String NO_ROLLBACK = "{ rollbackOnNack: false }";

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
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN", NO_ROLLBACK));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-nack");
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
        .filter(c -> c.nodeId().equals("grpc-nack"))
        .map(c -> c.types().get(XdsType.CLUSTER.typeUrl()))
        .filter(t -> t != null)
        .findFirst().orElse(null);
  }

  @Test
  void aRejectedClusterDrawsExactlyOneNackAndTheClientKeepsItsConfig() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call().equals("b1"));
    long good = server.reconciler().status().epoch();
    assertThat(cds().ackedEpoch()).isEqualTo(good);

    ws.write("signalbox.yaml", Workspace.config(xdsPort, "MAGLEV", NO_ROLLBACK));
    await().atMost(Duration.ofSeconds(10)).until(() -> cds() != null && cds().nack() != null);
    TypeStatus afterNack = cds();
    assertThat(afterNack.nacks()).isEqualTo(1);
    assertThat(afterNack.nack().message()).isNotBlank();
    assertThat(afterNack.nack().epoch()).isGreaterThan(good);
    assertThat(afterNack.ackedEpoch()).isEqualTo(good);

    // No re-send loop: for two seconds nothing more is sent of CDS, and no second NACK arrives.
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
        .until(() -> cds().responses() == afterNack.responses() && cds().nacks() == 1);
    for (int i = 0; i < 20; i++) {
      assertThat(call()).isEqualTo("b1");
    }
  }
}
