package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Grpc;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.TestPki;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The xDS server's certificate, key and client CA are rotated the way Kubernetes rotates a mounted
 * secret (the {@code ..data} symlink swapped to a new directory): new connections get the new
 * material at once, the streams already open go on receiving epochs.
 */
class CertificateRotationTest {

  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  @TempDir Path dir;
  private final TestResources resources = new TestResources();
  private final List<RecordingAdsClient> clients = new ArrayList<>();
  private TestPki ca;
  private AdsServer server;
  private int generation;

  @BeforeEach
  void start() throws IOException {
    ca = TestPki.ca("ca-one");
    mountSecret(ca.server("xds-one"), ca);
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(),
        new EdgeSettings(new CertificateFiles.Paths("xds.tls", dir.resolve("tls.crt"), dir.resolve("tls.key"),
            dir.resolve("ca.crt")), null, XdsLimitsSettings.defaults(), Duration.ofMinutes(30), Duration.ofMinutes(1)),
        refusal -> {});
    server.publish(resources.with("a", List.of(1001)));
  }

  @AfterEach
  void stop() {
    clients.forEach(RecordingAdsClient::close);
    server.close();
  }

  /**
   * Writes a secret volume as kubelet does: the files live in a fresh timestamped directory,
   * {@code ..data} points at it, and {@code tls.crt}, {@code tls.key}, {@code ca.crt} point through
   * {@code ..data}; a new version is published by renaming a new {@code ..data} link over the old.
   */
  private void mountSecret(TestPki.Issued serverCertificate, TestPki... trusted) throws IOException {
    Path version = Files.createDirectory(dir.resolve("..version-" + ++generation));
    Files.writeString(version.resolve("tls.crt"), TestPki.pem(serverCertificate.certificate()));
    Files.writeString(version.resolve("tls.key"), TestPki.pem(serverCertificate.keys().getPrivate()));
    StringBuilder bundle = new StringBuilder();
    for (TestPki authority : trusted) {
      bundle.append(TestPki.pem(authority.certificate().certificate()));
    }
    Files.writeString(version.resolve("ca.crt"), bundle);
    Path link = dir.resolve("..data_tmp");
    Files.createSymbolicLink(link, version.getFileName());
    Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    for (String name : List.of("tls.crt", "tls.key", "ca.crt")) {
      if (!Files.exists(dir.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(dir.resolve(name), Path.of("..data", name));
      }
    }
  }

  private RecordingAdsClient client(TestPki authority, TestPki.Issued certificate, String name) throws IOException {
    TestPki.PemFiles files = certificate.written(dir, name);
    Path trust = authority.writeCa(dir.resolve(name + "-trust.pem"));
    RecordingAdsClient client = new RecordingAdsClient(Grpc.newChannelBuilderForAddress("localhost", server.port(),
        TlsChannelCredentials.newBuilder().trustManager(trust.toFile())
            .keyManager(files.cert().toFile(), files.key().toFile()).build()).build());
    clients.add(client);
    return client;
  }

  /** The serial of the certificate a new TLS connection to the xDS port is shown. */
  private BigInteger servedSerial(TestPki authority) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("ca", authority.certificate().certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.port())) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {"h2"});
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  private static int port(DiscoveryResponse response) throws Exception {
    return response.getResources(0).unpack(ClusterLoadAssignment.class).getEndpoints(0).getLbEndpoints(0)
        .getEndpoint().getAddress().getSocketAddress().getPortValue();
  }

  @Test
  void aNewServerCertificateServesNewConnectionsWhileOpenStreamsGoOn() throws Exception {
    RecordingAdsClient streaming = client(ca, ca.client("web-1"), "web-1");
    streaming.openSotw().autoAnswer(r -> null).subscribe(RecordingAdsClient.node("web-1"), EDS, List.of("a"));
    assertThat(port(streaming.next())).isEqualTo(1001);
    BigInteger before = servedSerial(ca);

    TestPki.Issued rotated = ca.server("xds-two");
    mountSecret(rotated, ca);

    await().atMost(Duration.ofSeconds(20)).until(() -> servedSerial(ca).equals(rotated.serial()));
    assertThat(rotated.serial()).isNotEqualTo(before);
    server.publish(resources.with("a", List.of(1002)));
    assertThat(port(streaming.next())).isEqualTo(1002);
    assertThat(streaming.error()).isNull();

    RecordingAdsClient fresh = client(ca, ca.client("web-2"), "web-2");
    fresh.openSotw().subscribe(RecordingAdsClient.node("web-2"), EDS, List.of("a"));
    assertThat(port(fresh.next())).isEqualTo(1002);
  }

  @Test
  void aNewClientCaAdmitsItsClientsWithoutDroppingTheOldOnes() throws Exception {
    RecordingAdsClient old = client(ca, ca.client("web-1"), "web-1");
    old.openSotw().autoAnswer(r -> null).subscribe(RecordingAdsClient.node("web-1"), EDS, List.of("a"));
    assertThat(port(old.next())).isEqualTo(1001);
    TestPki next = TestPki.ca("ca-two");
    RecordingAdsClient early = client(ca, next.client("web-2"), "web-2-early");
    early.openSotw().subscribe(RecordingAdsClient.node("web-2"), EDS, List.of("a"));
    await().atMost(Duration.ofSeconds(10)).until(() -> early.error() != null);
    assertThat(Status.fromThrowable(early.error()).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    early.close();

    // The new CA replaces the old one outright; the server certificate moves to the new CA too.
    TestPki.Issued serverTwo = next.server("xds-two");
    mountSecret(serverTwo, next);
    await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> servedSerial(next).equals(serverTwo.serial()));

    RecordingAdsClient admitted = client(next, next.client("web-2"), "web-2");
    admitted.openSotw().subscribe(RecordingAdsClient.node("web-2"), EDS, List.of("a"));
    assertThat(port(admitted.next())).isEqualTo(1001);
    server.publish(resources.with("a", List.of(1003)));
    assertThat(port(old.next())).isEqualTo(1003);
    assertThat(old.error()).isNull();
  }
}
