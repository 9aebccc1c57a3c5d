package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One endpoint, two families (issue 44, gRFC A61), as grpc-xds 1.85.1 meets it with {@code
 * GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS=true}: the backend listens on {@code ::1} only, the
 * endpoint's address is {@code 127.0.0.1} on the same port (nothing answers there) and {@code ::1}
 * is its additional address. The client reaches the backend, so it took the additional address.
 *
 * <p>And one endpoint to operators, whichever of its addresses they name: in cluster {@code web}
 * (the same endpoint beside an ordinary IPv4 one, {@code plain}) the operator CLI (the built jar)
 * drains it by its IPv6 address, the drain is kept under its own (IPv4) address, and the client
 * stops sending it calls.
 */
class DualStackIT {

  @TempDir static Path dir;
  static Server backend;
  static Server plain;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static ManagedChannel web;
  static Admin admin;

  @BeforeAll
  static void start() throws Exception {
    Workspace ws = new Workspace(dir);
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("::1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage("v6-only").build());
            response.onCompleted();
          }
        }).build().start();
    plain = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage("plain").build());
            response.onCompleted();
          }
        }).build().start();
    int xdsPort = Workspace.freePort();
    String dual = "{ address: 127.0.0.1, port: " + backend.getPort() + ", additionalAddresses: [ '::1' ] }";
    ws.write("pods.yaml", "clusters:\n  dual:\n    - " + dual + "\n  web:\n    - " + dual
        + "\n    - { address: 127.0.0.1, port: " + plain.getPort() + " }\n");
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d }
        rollout: { settle: 1s }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./pods.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - { name: dual, apiListener: true, routeConfig: dual }
          - { name: web, apiListener: true, routeConfig: web }
        routeConfigs:
          - name: dual
            virtualHosts:
              - { name: dual, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: dual } ] }
          - name: web
            virtualHosts:
              - { name: web, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: web } ] }
        """.formatted(xdsPort));
    server = RunningSignalbox.serve(config);
    // grpc-xds reads additional_addresses only with this flag (XdsEndpointResource).
    System.setProperty("GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS", "true");
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-dual-stack");
    channel = client.channel("dual");
    web = client.channel("web");
    admin = new Admin(server.adminPort());
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    for (Server s : new Server[] {backend, plain}) {
      if (s != null) {
        s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static String call() {
    return call(channel);
  }

  private static String call(ManagedChannel on) {
    return SimpleServiceGrpc.newBlockingStub(on).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  /** What {@code calls} calls through {@code web} were answered by. */
  private static Set<String> answers(int calls) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < calls; i++) {
      seen.add(call(web));
    }
    return seen;
  }

  private static CliProcess.Result cli(String... args) {
    return CliProcess.run(dir, Map.of("SIGNALBOX_SERVER", "http://127.0.0.1:" + server.adminPort()), args);
  }

  @Test
  void aClientReachesABackendListeningOnlyOnItsAdditionalAddress() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> "v6-only".equals(call()));
    for (int i = 0; i < 20; i++) {
      assertThat(call()).isEqualTo("v6-only");
    }
  }

  @Test
  void drainingByTheIpv6AddressDrainsTheOneEndpointAndTheClientStopsCallingIt() {
    String own = "127.0.0.1:" + backend.getPort();
    String v6 = "[::1]:" + backend.getPort();
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> answers(20).equals(Set.of("v6-only", "plain")));

    // An address no endpoint has is refused, and nothing is drained.
    CliProcess.Result unknown = cli("drain", "web", "[::2]:" + backend.getPort());
    assertThat(unknown.exit()).as(unknown.out()).isNotZero();
    assertThat(unknown.err()).contains("cluster 'web' has no endpoint [::2]:" + backend.getPort());
    assertThat(admin.sendJson("GET", "/api/v1/drains", null, 200)).isEmpty();

    CliProcess.Result drain = cli("drain", "web", v6, "--deadline", "1h");
    assertThat(drain.exit()).as("%s %s", drain.out(), drain.err()).isZero();
    assertThat(drain.out()).startsWith("draining web/" + own + " (by its address " + v6 + ")");

    // One drain, kept under the endpoint's own address; either address reads it back.
    JsonNode drains = admin.sendJson("GET", "/api/v1/drains", null, 200);
    assertThat(drains).hasSize(1);
    assertThat(drains.get(0).get("endpoint").asText()).isEqualTo(own);
    assertThat(admin.sendJson("GET", "/api/v1/clusters/web/endpoints/" + own + "/drain", null, 200)
        .get("endpoint").asText()).isEqualTo(own);
    assertThat(admin.sendJson("GET", "/api/v1/clusters/web/endpoints/%5B::1%5D:" + backend.getPort() + "/drain", null,
        200).get("endpoint").asText()).isEqualTo(own);
    JsonNode why = admin.sendJson("GET", "/api/v1/clusters/web/endpoints/%5B::1%5D:" + backend.getPort() + "/why", null,
        200);
    assertThat(why.get("endpoint").asText()).isEqualTo(own);
    assertThat(why.toString()).contains("DRAINING");

    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> answers(20).equals(Set.of("plain")));
    assertThat(answers(40)).containsExactly("plain");

    // Undrained by its IPv4 address: the same endpoint comes back.
    CliProcess.Result undrain = cli("undrain", "web", own);
    assertThat(undrain.exit()).as("%s %s", undrain.out(), undrain.err()).isZero();
    assertThat(admin.sendJson("GET", "/api/v1/drains", null, 200)).isEmpty();
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> answers(20).contains("v6-only"));
  }
}
