package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drain through a node group that gets DRAINING endpoints as UNHEALTHY (xds.clientKinds, as for
 * Armeria), with grpc-java's real xDS client placed in that group: it accepts the variant and sends
 * the drained backend no new RPCs, while a client outside the group is still sent the endpoint as
 * DRAINING. grpc-xds reads one bootstrap per JVM, so the client outside the group is a raw ADS
 * client with grpc-java's user agent.
 */
class ClientKindsDrainIT {

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
    ws.write("endpoints.yaml", endpoints("READY"));
    // The bootstrap's node cluster is "e2e": that group is told to be Armeria.
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN").replace(
        "xds: { port: " + xdsPort + " }",
        "xds:\n  port: " + xdsPort + "\n  clientKinds: [ { nodeClusters: [ e2e ], kind: ARMERIA, drainingAs: UNHEALTHY } ]"));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-as-armeria");
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

  private static String endpoints(String b3) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    for (String b : List.of("b1", "b2", "b3")) {
      out.append("    - { address: 127.0.0.1, port: ").append(backends.port(b))
          .append(", zone: a, state: ").append(b.equals("b3") ? b3 : "READY").append(" }\n");
    }
    return out.toString();
  }

  private static Set<String> calls(int n) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage());
    }
    return seen;
  }

  /** Each endpoint's port and health in the newest assignment {@code client} received. */
  private static Map<Integer, HealthStatus> latest(RecordingAdsClient client) throws Exception {
    Map<Integer, HealthStatus> out = new HashMap<>();
    List<DiscoveryResponse> received = client.sotw;
    if (received.isEmpty()) {
      return out;
    }
    ClusterLoadAssignment cla = received.get(received.size() - 1).getResources(0).unpack(ClusterLoadAssignment.class);
    for (var locality : cla.getEndpointsList()) {
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        out.put(e.getEndpoint().getAddress().getSocketAddress().getPortValue(), e.getHealthStatus());
      }
    }
    return out;
  }

  @Test
  void aDrainStopsNewWorkOnTheGroupThatGetsUnhealthyAndOthersStillGetDraining() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> calls(6).equals(Set.of("b1", "b2", "b3")));
    try (RecordingAdsClient outside = new RecordingAdsClient(server.xdsPort()).openSotw()) {
      outside.autoAnswer(r -> null);
      outside.subscribe(Node.newBuilder().setId("java-outside").setCluster("elsewhere").setUserAgentName("gRPC Java")
          .build(), XdsType.ENDPOINT.typeUrl(), List.of("greeter"));
      await().atMost(Duration.ofSeconds(10)).until(() -> latest(outside).size() == 3);

      long before = server.reconciler().status().epoch();
      ws.write("endpoints.yaml", endpoints("DRAINING"));
      await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before);

      // grpc-xds got b3 as UNHEALTHY: it accepts that and sends b3 nothing new.
      await().atMost(Duration.ofSeconds(20)).until(() -> !calls(10).contains("b3"));
      assertThat(calls(30)).containsExactlyInAnyOrder("b1", "b2");
      assertThat(server.xds().clients()).filteredOn(c -> c.nodeId().equals("grpc-as-armeria")).singleElement()
          .satisfies(c -> assertThat(c.types().values()).allSatisfy(t -> assertThat(t.nack()).isNull()));
      // A client outside the group is sent the same drain as DRAINING.
      await().atMost(Duration.ofSeconds(10)).until(() ->
          latest(outside).get(backends.port("b3")) == HealthStatus.DRAINING);
    }
  }
}
