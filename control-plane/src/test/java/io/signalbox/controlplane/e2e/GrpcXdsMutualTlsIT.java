package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.tls.TestPki;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-java's own xDS client over mutual TLS, its bootstrap naming certificate files as gRFC A65
 * specifies (see {@link A65TlsXdsCredentialsProvider}), against a Signalbox that binds node ids to
 * certificates and serves its admin API over HTTPS: RPCs follow the endpoint file, and the client is
 * listed by {@code /api/v1/clients}, read over HTTPS by the built jar's CLI with
 * {@code SIGNALBOX_CACERT} and by a plain HTTPS client.
 */
class GrpcXdsMutualTlsIT {

  @TempDir static Path dir;
  static TestPki ca;
  static Workspace ws;
  static Backends backends;
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient xdsClient;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    ca = TestPki.ca("mesh-ca");
    Path caFile = ca.writeCa(dir.resolve("ca.pem"));
    TestPki.PemFiles xds = ca.server("signalbox-xds").written(dir, "xds");
    TestPki.PemFiles admin = ca.server("signalbox-admin").written(dir, "admin");
    TestPki.PemFiles client = ca.client("grpc-mtls", "spiffe://example.org/ns/e2e/sa/grpc-mtls").written(dir, "client");
    backends = Backends.start("b1", "b2");
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: %d }
            - { address: 127.0.0.1, port: %d }
        """.formatted(backends.port("b1"), backends.port("b2")));
    int xdsPort = Workspace.freePort();
    Path config = ws.write("signalbox.yaml", Workspace.config(xdsPort, "ROUND_ROBIN")
        .replace("xds: { port: %d }".formatted(xdsPort), """
            xds:
              port: %d
              tls:
                certFile: xds.pem
                keyFile: xds-key.pem
                clientCaFile: ca.pem
                nodeIdentity: "spiffe://example.org/ns/{nodeCluster}/sa/{nodeId}"
            """.formatted(xdsPort))
        .replace("admin: { port: 0 }", "admin: { port: 0, tls: { certFile: admin.pem, keyFile: admin-key.pem } }"));
    server = RunningSignalbox.serve(config);
    xdsClient = GrpcXdsClient.withBootstrap("""
        {"xds_servers": [{"server_uri": "localhost:%d",
           "channel_creds": [{"type": "tls", "config": {
             "ca_certificate_file": "%s", "certificate_file": "%s", "private_key_file": "%s"}}],
           "server_features": ["xds_v3"]}],
         "node": {"id": "grpc-mtls", "cluster": "e2e", "locality": {"zone": "a"}}}
        """.formatted(xdsPort, caFile, client.cert(), client.key()));
    channel = xdsClient.channel("greeter");
  }

  @AfterAll
  static void stop() throws Exception {
    if (xdsClient != null) {
      xdsClient.close();
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

  private static HttpClient trustingTheTestCa() throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("ca", ca.certificate().certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }

  @Test
  void grpcXdsIsServedOverMutualTlsAndListedByTheAdminApiOverHttps() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
      String first = call();
      String second = call();
      return !first.equals(second);
    });

    String adminUrl = "https://127.0.0.1:" + server.adminPort();
    HttpResponse<String> clients = trustingTheTestCa().send(
        HttpRequest.newBuilder(URI.create(adminUrl + "/api/v1/clients")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(clients.statusCode()).isEqualTo(200);
    JsonNode list = new ObjectMapper().readTree(clients.body());
    assertThat(list).anySatisfy(c -> {
      assertThat(c.path("nodeId").asText()).isEqualTo("grpc-mtls");
      assertThat(c.path("nodeCluster").asText()).isEqualTo("e2e");
      assertThat(c.path("types").size()).isEqualTo(4);
    });

    CliProcess.Result cli = CliProcess.run(dir, Map.of("SIGNALBOX_CACERT", dir.resolve("ca.pem").toString()),
        "clients", "--server", adminUrl, "--output", "json");
    assertThat(cli.exit()).as(cli.err()).isZero();
    assertThat(new ObjectMapper().readTree(cli.out()).findValuesAsText("nodeId")).contains("grpc-mtls");

    CliProcess.Result untrusted = CliProcess.run(dir, Map.of(), "status", "--server", adminUrl);
    assertThat(untrusted.exit()).isEqualTo(1);
    assertThat(untrusted.err().strip()).isEqualTo("signalbox: cannot reach " + adminUrl
        + ": its certificate is not trusted (pass --cacert FILE or set SIGNALBOX_CACERT)");
  }
}
