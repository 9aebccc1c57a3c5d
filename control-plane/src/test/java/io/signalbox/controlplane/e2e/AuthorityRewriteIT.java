package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
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
 * Endpoint hostnames and a route's {@code autoHostRewrite} (issue 44, gRFC A81) as grpc-xds 1.85.1
 * applies them: with {@code GRPC_EXPERIMENTAL_XDS_AUTHORITY_REWRITE=true} and a bootstrap that marks
 * Signalbox {@code trusted_xds_server}, a backend sees the chosen endpoint's hostname as {@code
 * :authority}; through a route without the field, the channel's own authority.
 */
class AuthorityRewriteIT {

  private static final String HOSTNAME = "backend-1.example.internal";

  @TempDir static Path dir;
  static Server backend;
  static SignalboxServer server;
  static GrpcXdsClient client;

  /** Answers every call with the authority it arrived with. */
  private static Server startBackend() throws Exception {
    var authority = io.grpc.Context.<String>key("authority");
    ServerInterceptor capture = new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, io.grpc.Metadata headers,
          ServerCallHandler<Q, A> next) {
        return io.grpc.Contexts.interceptCall(io.grpc.Context.current().withValue(authority, call.getAuthority()),
            call, headers, next);
      }
    };
    var service = new SimpleServiceGrpc.SimpleServiceImplBase() {
      @Override
      public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
        response.onNext(SimpleResponse.newBuilder().setResponseMessage(authority.get()).build());
        response.onCompleted();
      }
    };
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service, capture)).build().start();
  }

  @BeforeAll
  static void start() throws Exception {
    Workspace ws = new Workspace(dir);
    backend = startBackend();
    int xdsPort = Workspace.freePort();
    ws.write("named.yaml", "clusters:\n  named:\n    - { address: 127.0.0.1, port: " + backend.getPort()
        + ", hostname: " + HOSTNAME + " }\n");
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d }
        rollout: { settle: 1s }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./named.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - { name: rewrite, apiListener: true, routeConfig: rewrite }
          - { name: plain, apiListener: true, routeConfig: plain }
        routeConfigs:
          - name: rewrite
            virtualHosts:
              - { name: rewrite, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: named, autoHostRewrite: true } ] }
          - name: plain
            virtualHosts:
              - { name: plain, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: named } ] }
        """.formatted(xdsPort));
    server = RunningSignalbox.serve(config);
    // What A81 asks of a client before it lets a control plane move its authority: the flag, and
    // this server named trusted in its own bootstrap.
    System.setProperty("GRPC_EXPERIMENTAL_XDS_AUTHORITY_REWRITE", "true");
    client = GrpcXdsClient.withBootstrap("""
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}],
          "server_features": ["xds_v3", "trusted_xds_server"]}],
         "node": {"id": "grpc-authority", "cluster": "e2e", "locality": {"zone": "a"}}}
        """.formatted(xdsPort));
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

  private static String authorityThrough(String listener) {
    return SimpleServiceGrpc.newBlockingStub(client.channel(listener)).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  @Test
  void aTrustingClientSendsTheEndpointsHostnameAsTheAuthorityWhereTheRouteAsks() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> authorityThrough("rewrite") != null);
    assertThat(authorityThrough("rewrite")).isEqualTo(HOSTNAME);
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> authorityThrough("plain") != null);
    assertThat(authorityThrough("plain")).isEqualTo("plain");
  }
}
