package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.tls.TestPki;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.AuditEntry;
import io.signalbox.store.StoreSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * xDS over mutual TLS with node identity, against a whole Signalbox: a client whose certificate
 * names its node is served; every other client is refused with the right status, counted in
 * {@code signalbox_xds_auth_failures_total} and audited in the store; the good client never notices.
 */
class MutualTlsTest {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  @TempDir static Path dir;
  static TestPki ca;
  static SignalboxServer server;
  static RecordingAdsClient good;
  static final List<RecordingAdsClient> clients = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    ca = TestPki.ca("signalbox-test-ca");
    Path caFile = ca.writeCa(dir.resolve("ca.pem"));
    TestPki.PemFiles serverFiles = ca.server("signalbox-xds").written(dir, "xds");
    write("endpoints.yaml", endpoints(50001));
    Path config = write("signalbox.yaml", """
        xds:
          port: 0
          address: 127.0.0.1
          tls:
            certFile: %s
            keyFile: %s
            clientCaFile: %s
            nodeIdentity: "spiffe://example.org/{nodeId}"
        admin: { port: 0, address: 127.0.0.1 }
        store: { url: memory }
        rollout: { rollbackOnNack: false }
        sources: { files: [ ./endpoints.yaml ] }
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        clusters: [ { name: greeter, connectTimeout: 1s } ]
        """.formatted(serverFiles.cert().getFileName(), serverFiles.key().getFileName(), caFile.getFileName()));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    server = SignalboxServer.start(config, cfg, new StoreSettings("memory", dir.resolve("data"), null,
        null), Clock.systemUTC());
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > 0);

    good = client(credentials(ca.client("web-1", "spiffe://example.org/web-1"), "web-1"));
    good.openSotw().autoAnswer(r -> null).subscribe(node("web-1"), EDS, List.of("greeter"));
    assertThat(good.<DiscoveryResponse>next().getResourcesCount()).isEqualTo(1);
  }

  @AfterAll
  static void stop() {
    clients.forEach(RecordingAdsClient::close);
    if (server != null) {
      server.close();
    }
  }

  private static Path write(String name, String content) {
    return TestPki.write(dir.resolve(name), content);
  }

  private static String endpoints(int... ports) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int port : ports) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(port).append(" }\n");
    }
    return yaml.toString();
  }

  private static Node node(String id) {
    return Node.newBuilder().setId(id).setCluster("mesh").build();
  }

  private static ChannelCredentials credentials(TestPki.Issued certificate, String name) {
    try {
      TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder().trustManager(dir.resolve("ca.pem").toFile());
      if (certificate != null) {
        TestPki.PemFiles files = certificate.written(dir, name);
        builder.keyManager(files.cert().toFile(), files.key().toFile());
      }
      return builder.build();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static RecordingAdsClient client(ChannelCredentials credentials) {
    RecordingAdsClient client = new RecordingAdsClient(
        Grpc.newChannelBuilderForAddress("localhost", server.xdsPort(), credentials).build());
    clients.add(client);
    return client;
  }

  /** Opens a stream, asks for clusters as {@code nodeId}, and returns how the stream ended. */
  private static Status refusedStatus(RecordingAdsClient client, String nodeId) {
    client.openSotw().subscribe(node(nodeId), CDS, List.of());
    await().atMost(Duration.ofSeconds(10)).until(() -> client.error() != null);
    return Status.fromThrowable(client.error());
  }

  private static double authFailures(String reason) throws IOException, InterruptedException {
    String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher m = Pattern.compile("(?m)^signalbox_xds_auth_failures_total\\{reason=\"" + reason + "\",?} (\\S+)$")
        .matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }

  private static List<AuditEntry> refusalsAudited(String reason) {
    return server.store().auditLog(1000).stream()
        .filter(e -> e.action().equals("xds.auth_failure") && e.reason().startsWith(reason + ": "))
        .toList();
  }

  /**
   * The refusal is counted and audited, once per refusal: a client may try again on its own (grpc's
   * channel reconnects after a failed handshake), and each attempt is a refusal of its own.
   */
  private static void assertCountedAndAudited(String reason) {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      double counted = authFailures(reason);
      assertThat(counted).isGreaterThanOrEqualTo(1.0);
      assertThat(refusalsAudited(reason)).hasSize((int) counted);
    });
  }

  @Test
  void aPlaintextClientIsRefusedCountedAndAudited() {
    RecordingAdsClient plaintext = new RecordingAdsClient(server.xdsPort());
    clients.add(plaintext);

    assertThat(refusedStatus(plaintext, "web-1").getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    plaintext.close();

    assertCountedAndAudited("plaintext");
    AuditEntry entry = refusalsAudited("plaintext").get(0);
    assertThat(entry.actor()).startsWith("xds-client 127.0.0.1:");
    assertThat(entry.reason()).isEqualTo("plaintext: the client spoke plaintext to the xDS port, which requires TLS "
        + "(xds.tls) (peer " + entry.actor().substring("xds-client ".length()) + ", certificate subject -)");
    goodClientStillServed();
  }

  @Test
  void aClientWithoutACertificateIsRefusedUnauthenticated() {
    RecordingAdsClient anonymous = client(credentials(null, "none"));

    Status status = refusedStatus(anonymous, "web-1");

    assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(status.getDescription()).startsWith("a client certificate is required (xds.tls.clientCaFile is set); "
        + "the connection from 127.0.0.1:").endsWith(" presented none");
    assertCountedAndAudited("no_client_certificate");
    goodClientStillServed();
  }

  @Test
  void aCertificateFromAnotherCaIsRefusedDuringTheHandshake() {
    TestPki stranger = TestPki.ca("stranger-ca");
    RecordingAdsClient intruder = client(credentials(stranger.client("intruder", "spiffe://example.org/web-1"),
        "intruder"));

    assertThat(refusedStatus(intruder, "web-1").getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    intruder.close();

    assertCountedAndAudited("untrusted_certificate");
    AuditEntry entry = refusalsAudited("untrusted_certificate").get(0);
    assertThat(entry.reason()).startsWith("untrusted_certificate: the client certificate is not trusted by "
        + "xds.tls.clientCaFile: 'CN=intruder': ").endsWith(", certificate subject CN=intruder)");
    goodClientStillServed();
  }

  @Test
  void aNodeThatIsNotTheCertificatesIdentityIsPermissionDenied() {
    RecordingAdsClient impostor = client(credentials(ca.client("other", "spiffe://example.org/other"), "other"));

    Status status = refusedStatus(impostor, "web-2");

    assertThat(status.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(status.getDescription()).isEqualTo("node 'web-2' (cluster 'mesh') must present a certificate with "
        + "URI SAN 'spiffe://example.org/web-2'; this one ('CN=other') has [spiffe://example.org/other]");
    assertCountedAndAudited("identity_mismatch");
    AuditEntry entry = refusalsAudited("identity_mismatch").get(0);
    assertThat(entry.target()).isEqualTo("'web-2' (cluster 'mesh')");
    assertThat(entry.reason()).endsWith(", certificate subject CN=other)");
    goodClientStillServed();
  }

  @Test
  void aLoadReportStreamIsHeldToTheSameNodeIdentity() throws Exception {
    io.grpc.ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", server.xdsPort(),
        credentials(ca.client("lrs-1", "spiffe://example.org/lrs-1"), "lrs-1")).build();
    try {
      java.util.concurrent.LinkedBlockingQueue<Object> own = lrs(channel, "lrs-1");
      java.util.concurrent.LinkedBlockingQueue<Object> impostor = lrs(channel, "web-2");

      assertThat(own.poll(20, java.util.concurrent.TimeUnit.SECONDS))
          .isInstanceOf(io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse.class);
      Object refused = impostor.poll(20, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(refused).isInstanceOf(Throwable.class);
      assertThat(Status.fromThrowable((Throwable) refused).getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    } finally {
      channel.shutdownNow();
    }
    goodClientStillServed();
  }

  /** Opens an LRS stream as {@code nodeId}; its answers and its end land in the returned queue. */
  private static java.util.concurrent.LinkedBlockingQueue<Object> lrs(io.grpc.Channel channel, String nodeId) {
    java.util.concurrent.LinkedBlockingQueue<Object> answers = new java.util.concurrent.LinkedBlockingQueue<>();
    io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc.newStub(channel).streamLoadStats(
        new io.grpc.stub.StreamObserver<>() {
          @Override
          public void onNext(io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse value) {
            answers.add(value);
          }

          @Override
          public void onError(Throwable t) {
            answers.add(t);
          }

          @Override
          public void onCompleted() {
            answers.add("completed");
          }
        }).onNext(io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest.newBuilder().setNode(node(nodeId))
        .build());
    return answers;
  }

  @Test
  void aNodeThatChangesItsIdMidStreamIsPermissionDeniedAndForgotten() throws Exception {
    RecordingAdsClient turncoat = client(credentials(ca.client("web-3", "spiffe://example.org/web-3"), "web-3"));
    turncoat.openSotw().subscribe(node("web-3"), CDS, List.of());
    DiscoveryResponse first = turncoat.next();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.xds().clients().stream()
        .anyMatch(c -> c.nodeId().equals("web-3")));

    turncoat.send(DiscoveryRequest.newBuilder().setNode(node("web-1")).setTypeUrl(CDS)
        .setVersionInfo(first.getVersionInfo()).setResponseNonce(first.getNonce()).build());
    await().atMost(Duration.ofSeconds(10)).until(() -> turncoat.error() != null);
    Status status = Status.fromThrowable(turncoat.error());

    assertThat(status.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(status.getDescription()).isEqualTo("this stream belongs to node 'web-3' (cluster 'mesh'); "
        + "a request claimed node 'web-1' (cluster 'mesh')");
    assertCountedAndAudited("node_changed");
    await().atMost(Duration.ofSeconds(10)).until(() -> server.xds().clients().stream()
        .noneMatch(c -> c.nodeId().equals("web-3")));
    goodClientStillServed();
  }

  @Test
  void aStreamWithoutANodeIdIsInvalid() {
    RecordingAdsClient nameless = client(credentials(ca.client("nameless", "spiffe://example.org/web-1"), "nameless"));
    nameless.openSotw().send(DiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    await().atMost(Duration.ofSeconds(10)).until(() -> nameless.error() != null);
    Status status = Status.fromThrowable(nameless.error());

    assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).isEqualTo("the first request of a stream must carry node.id: "
        + "xds.tls.nodeIdentity checks it against the certificate");
    assertCountedAndAudited("invalid_node");
  }

  /** The good client is still connected, still one client, and still gets every new epoch. */
  private static void goodClientStillServed() {
    assertThat(good.error()).isNull();
    int before = good.sotw.size();
    int port = 50002 + before;
    write("endpoints.yaml", endpoints(50001, port));
    await().atMost(Duration.ofSeconds(10)).until(() -> good.sotw.size() > before);
    assertThat(good.error()).isNull();
    assertThat(server.xds().clients()).extracting(ClientStatus::nodeId).containsOnlyOnce("web-1");
  }
}
