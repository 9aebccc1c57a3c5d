package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.tls.TestPki;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin API over HTTPS ({@code admin.tls}), driven by the CLI with {@code --cacert}. */
class AdminHttpsTest {

  @TempDir static Path dir;
  static TestPki ca;
  static Path caFile;
  static RunningSignalbox sb;
  static String https;

  @BeforeAll
  static void start() {
    ca = TestPki.ca("admin-ca");
    caFile = ca.writeCa(dir.resolve("ca.pem"));
    TestPki.PemFiles files = ca.server("signalbox-admin").written(dir, "admin");
    sb = RunningSignalbox.start(dir, 2, "tls: { certFile: %s, keyFile: %s }".formatted(files.cert(), files.key()), "");
    https = "https://127.0.0.1:" + sb.server.adminPort();
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  @Test
  void theCliTrustsTheAdminServerThroughCacert() {
    Cli.Run run = Cli.run("status", "--server", https, "--cacert", caFile.toString(), "--output", "json");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"epoch\" : " + sb.epoch());
  }

  @Test
  void withoutCacertTheServersCertificateIsNotTrustedAndTheCliSaysHowToFixIt() {
    Cli.Run run = Cli.run("status", "--server", https);

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("signalbox: cannot reach " + https
        + ": its certificate is not trusted (pass --cacert FILE or set SIGNALBOX_CACERT)");
  }

  @Test
  void aCacertOfAnotherCaIsNamedInTheError() {
    Path other = TestPki.ca("other-ca").writeCa(dir.resolve("other-ca.pem"));

    Cli.Run run = Cli.run("status", "--server", https, "--cacert", other.toString());

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("signalbox: cannot reach " + https
        + ": its certificate is not trusted (it does not chain to --cacert " + other + ")");
  }

  @Test
  void aMissingCacertFileIsAUsageError() {
    Cli.Run run = Cli.run("status", "--server", https, "--cacert", dir.resolve("nope.pem").toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("Invalid value for option '--cacert': no such file: " + dir.resolve("nope.pem"));
  }

  @Test
  void plainHttpToTheHttpsPortIsRefusedWithAHint() {
    String http = "http://127.0.0.1:" + sb.server.adminPort();

    Cli.Run run = Cli.run("status", "--server", http);

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("signalbox: cannot reach " + http
        + ": it does not answer plain HTTP; if it serves HTTPS (admin.tls), use https://");
  }

  @Test
  void aRenewedCertificateIsServedToNewConnections() throws Exception {
    BigInteger before = servedSerial();
    TestPki.Issued renewed = ca.server("signalbox-admin");

    renewed.written(dir, "admin");

    await().atMost(Duration.ofSeconds(20)).until(() -> servedSerial().equals(renewed.serial()));
    assertThat(renewed.serial()).isNotEqualTo(before);
    Cli.Run run = Cli.run("status", "--server", https, "--cacert", caFile.toString());
    assertThat(run.exit()).as(run.err()).isZero();
  }

  private static BigInteger servedSerial() throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("ca", ca.certificate().certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", sb.server.adminPort())) {
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }
}
