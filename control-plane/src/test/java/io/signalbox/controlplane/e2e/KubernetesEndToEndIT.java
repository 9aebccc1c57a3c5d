package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.source.SourceHealth;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-xds against Signalbox fed by EndpointSlices from fabric8's mock API server: the cluster
 * {@code default/greeter:grpc} is discovered (declared nowhere), and traffic follows the slices.
 * Each backend listens on its own port, so each gets its own slice (ports are per slice), both
 * labelled for Service {@code greeter} and port name {@code grpc}.
 */
class KubernetesEndToEndIT {

  private static final String CLUSTER = "default/greeter:grpc";

  @TempDir static Path dir;
  static KubernetesMockServer api;
  static KubernetesClient kube;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;

  @BeforeAll
  static void start() throws Exception {
    api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(),
        false);
    api.init(InetAddress.getLoopbackAddress(), 0);
    kube = api.createClient();
    backends = Backends.start("b1", "b2");
    kube.resource(new ServiceBuilder()
        .withNewMetadata().withNamespace("default").withName("greeter").endMetadata()
        .withNewSpec().addNewPort().withName("grpc").withPort(80).endPort().endSpec()
        .build()).create();
    put(slice("b1", true, false));
    put(slice("b2", false, false));

    Workspace ws = new Workspace(dir);
    int xdsPort = Workspace.freePort();
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          kubernetes: { enabled: true, namespaces: [ default ], masterUrl: "http://127.0.0.1:%d" }
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: "%s"
        """.formatted(xdsPort, api.getPort(), CLUSTER));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "k8s-e2e");
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
    if (kube != null) {
      kube.close();
    }
    if (api != null) {
      api.destroy();
    }
  }

  /** One backend's slice: 127.0.0.1 on that backend's port. */
  private static EndpointSlice slice(String backend, boolean ready, boolean terminating) {
    return new EndpointSliceBuilder()
        .withNewMetadata().withNamespace("default").withName("greeter-" + backend)
        .addToLabels("kubernetes.io/service-name", "greeter").endMetadata()
        .withAddressType("IPv4")
        .addNewPort().withName("grpc").withPort(backends.port(backend)).withProtocol("TCP").endPort()
        .addNewEndpoint().withAddresses("127.0.0.1").withZone("a")
        .withNewConditions().withReady(ready).withServing(ready || terminating).withTerminating(terminating)
        .endConditions().endEndpoint()
        .build();
  }

  private static void put(EndpointSlice slice) {
    kube.resource(slice).createOr(existing -> existing.update());
  }

  private static Set<String> calls(int n) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage());
    }
    return seen;
  }

  @Test
  void trafficFollowsTheEndpointSlices() {
    // b2 is not ready yet (WARMING): only b1 is offered.
    await().atMost(Duration.ofSeconds(30)).until(() -> calls(6).equals(Set.of("b1")));
    assertThat(server.reconciler().status().sources()).containsEntry("kubernetes", SourceHealth.FRESH);
    assertThat(server.reconciler().published().endpoints()).containsOnlyKeys(CLUSTER);

    // b2 becomes ready: both serve.
    put(slice("b2", true, false));
    await().atMost(Duration.ofSeconds(10)).until(() -> calls(10).equals(Set.of("b1", "b2")));

    // b1's pod terminates (still serving in-flight work): no new RPCs reach it.
    put(slice("b1", false, true));
    await().atMost(Duration.ofSeconds(10)).until(() -> calls(10).equals(Set.of("b2")));
    assertThat(calls(30)).containsExactly("b2");
  }
}
