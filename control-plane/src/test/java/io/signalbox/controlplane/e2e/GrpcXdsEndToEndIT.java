package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-java's own xDS client against Signalbox, with three real backends: traffic follows the
 * endpoint file, a DRAINING endpoint gets no new RPCs, a removed one none at all, and an invalid
 * edit changes nothing.
 */
class GrpcXdsEndToEndIT {

  @TempDir static Path dir;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3");
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints("READY", "READY", "READY"));
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN"));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-e2e");
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

  private static String endpoints(String s1, String s2, String s3) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    String[] states = {s1, s2, s3};
    for (int i = 0; i < 3; i++) {
      if (states[i] != null) {
        out.append("    - { address: 127.0.0.1, port: ").append(backends.port("b" + (i + 1)))
            .append(", zone: a, state: ").append(states[i]).append(" }\n");
      }
    }
    return out.toString();
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static Set<String> calls(int n) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(call());
    }
    return seen;
  }

  private static long ackedEndpointsEpoch() {
    return server.xds().clients().stream()
        .filter(c -> c.nodeId().equals("grpc-e2e"))
        .mapToLong(c -> {
          var t = c.types().get(XdsType.ENDPOINT.typeUrl());
          return t == null ? 0 : t.syncedEpoch();
        })
        .max().orElse(0);
  }

  @Test
  void trafficFollowsTheEndpointFile() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> calls(6).equals(Set.of("b1", "b2", "b3")));
    long first = server.reconciler().status().epoch();
    assertThat(first).isPositive();

    // Drain b3: no new RPCs reach it once the client holds the draining epoch.
    ws.write("endpoints.yaml", endpoints("READY", "READY", "DRAINING"));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > first);
    long draining = server.reconciler().status().epoch();
    await().atMost(Duration.ofSeconds(10)).until(() -> ackedEndpointsEpoch() >= draining);
    await().atMost(Duration.ofSeconds(10)).until(() -> !calls(10).contains("b3"));
    assertThat(calls(30)).containsExactlyInAnyOrder("b1", "b2");

    // Remove b2 (and b3): only b1 remains.
    ws.write("endpoints.yaml", endpoints("READY", null, null));
    await().atMost(Duration.ofSeconds(10)).until(() -> calls(10).equals(Set.of("b1")));
    assertThat(calls(30)).containsExactly("b1");
    long beforeInvalid = server.reconciler().status().epoch();

    // An invalid edit is refused whole by the file source (FAILED, its last good endpoints kept);
    // traffic continues unchanged.
    ws.write("endpoints.yaml", endpoints("READY", null, null).replace("zone: a", "zone: a, weight: 0"));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().sourceProblems().values().stream()
        .flatMap(java.util.List::stream).anyMatch(v -> v.contains("weight: must be >= 1, was 0")));
    assertThat(server.reconciler().status().epoch()).isEqualTo(beforeInvalid);
    assertThat(calls(30)).containsExactly("b1");
    ClientStatus client = server.xds().clients().stream().filter(c -> c.nodeId().equals("grpc-e2e")).findFirst()
        .orElseThrow();
    assertThat(client.types()).containsKeys(XdsType.LISTENER.typeUrl(), XdsType.ROUTE.typeUrl(),
        XdsType.CLUSTER.typeUrl(), XdsType.ENDPOINT.typeUrl());
    assertThat(client.types().values()).allSatisfy(t -> assertThat(t.nack()).isNull());
  }
}
