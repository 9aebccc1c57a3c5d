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
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
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
 */
class DualStackIT {

  @TempDir static Path dir;
  static Server backend;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;

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
    int xdsPort = Workspace.freePort();
    ws.write("pods.yaml", "clusters:\n  dual:\n    - { address: 127.0.0.1, port: " + backend.getPort()
        + ", additionalAddresses: [ '::1' ] }\n");
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
        routeConfigs:
          - name: dual
            virtualHosts:
              - { name: dual, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: dual } ] }
        """.formatted(xdsPort));
    server = RunningSignalbox.serve(config);
    // grpc-xds reads additional_addresses only with this flag (XdsEndpointResource).
    System.setProperty("GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS", "true");
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-dual-stack");
    channel = client.channel("dual");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backend != null) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  @Test
  void aClientReachesABackendListeningOnlyOnItsAdditionalAddress() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> "v6-only".equals(call()));
    for (int i = 0; i < 20; i++) {
      assertThat(call()).isEqualTo("v6-only");
    }
  }
}
