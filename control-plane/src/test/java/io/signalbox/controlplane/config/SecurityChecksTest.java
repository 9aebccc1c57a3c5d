package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecurityChecksTest {

  private static final Path BASE = Path.of("/etc/signalbox");

  private static SignalboxConfig load(String yaml) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.structure(yaml, "signalbox.yaml", BASE);
    assertThat(parsed.violations()).isEmpty();
    return ((Parsed.Ok<SignalboxConfig>) parsed).value();
  }

  private static List<String> problems(String yaml) {
    return SecurityChecks.of(load(yaml)).stream().map(Violation::toString).toList();
  }

  @Test
  void everyTlsAndLimitKeyLoadsWithFilesResolvedAgainstTheConfigsDirectory() {
    SignalboxConfig config = load("""
        xds:
          tls: {certFile: tls/server.pem, keyFile: tls/server.key, clientCaFile: /ca/clients.pem,
                nodeIdentity: "spiffe://example.org/ns/{nodeCluster}/sa/{nodeId}"}
          limits: {maxStreamsPerConnection: 4, maxRequestBytes: 1048576, maxNamesPerSubscription: 500,
                   maxPendingRequests: 50, permitKeepAliveTime: 30s, handshakeTimeout: 5s}
          maxConnectionAge: 10m
          maxConnectionAgeGrace: 30s
        admin:
          tls: {certFile: admin.pem, keyFile: admin.key}
        """);

    assertThat(config.xds().tls()).isEqualTo(new XdsTlsSettings(Path.of("/etc/signalbox/tls/server.pem"),
        Path.of("/etc/signalbox/tls/server.key"), Path.of("/ca/clients.pem"),
        "spiffe://example.org/ns/{nodeCluster}/sa/{nodeId}"));
    assertThat(config.xds().limits()).isEqualTo(new XdsLimitsSettings(4, 1048576, 500, 50, Duration.ofSeconds(30),
        Duration.ofSeconds(5)));
    assertThat(config.xds().maxConnectionAge()).isEqualTo(Duration.ofMinutes(10));
    assertThat(config.xds().maxConnectionAgeGrace()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.admin().tls()).isEqualTo(new AdminTlsSettings(Path.of("/etc/signalbox/admin.pem"),
        Path.of("/etc/signalbox/admin.key")));
    assertThat(SecurityChecks.of(config)).isEmpty();
  }

  @Test
  void withoutTheSectionsXdsIsPlaintextWithTheDefaultLimitsAndConnectionAge() {
    SignalboxConfig config = load("");

    assertThat(config.xds().tls()).isNull();
    assertThat(config.admin().tls()).isNull();
    assertThat(config.xds().limits()).isEqualTo(new XdsLimitsSettings(16, 4 * 1024 * 1024, 20_000, 1000,
        Duration.ofSeconds(10), Duration.ofSeconds(10)));
    assertThat(config.xds().maxConnectionAge()).isEqualTo(Duration.ofMinutes(30));
    assertThat(config.xds().maxConnectionAgeGrace()).isEqualTo(Duration.ofMinutes(1));
    assertThat(SecurityChecks.of(config)).isEmpty();
  }

  @Test
  void tlsKeysThatDoNotGoTogetherAreNamed() {
    assertThat(problems("""
        xds:
          tls: {clientCaFile: ca.pem, nodeIdentity: "spiffe://x/{node}"}
        admin:
          tls: {certFile: admin.pem}
        """)).containsExactly(
        "signalbox.yaml: xds.tls.certFile: is required with xds.tls [server]",
        "signalbox.yaml: xds.tls.keyFile: is required with xds.tls [server]",
        "signalbox.yaml: xds.tls.clientCaFile: needs certFile and keyFile: mutual TLS is TLS first [server]",
        "signalbox.yaml: xds.tls.nodeIdentity: unknown placeholder '{node}' (use {nodeId} or {nodeCluster}),"
            + " was 'spiffe://x/{node}' [server]",
        "signalbox.yaml: admin.tls.keyFile: is required with admin.tls [server]");
  }

  @Test
  void aNodeIdentityWithoutClientCertificatesIsRefused() {
    assertThat(problems("""
        xds:
          tls: {certFile: s.pem, keyFile: s.key, nodeIdentity: "spiffe://example.org/{nodeId}"}
        """)).containsExactly("signalbox.yaml: xds.tls.nodeIdentity: needs clientCaFile: without client"
        + " certificates there is no identity to bind a node to [server]");
  }

  @Test
  void limitsOutOfRangeAreNamedWithTheirValue() {
    assertThat(problems("""
        xds:
          limits: {maxStreamsPerConnection: 0, maxRequestBytes: 1024, maxNamesPerSubscription: 0,
                   maxPendingRequests: -1, handshakeTimeout: 0s}
          maxConnectionAge: 0s
        """)).containsExactly(
        "signalbox.yaml: xds.limits.maxStreamsPerConnection: must be at least 1, was 0 [server]",
        "signalbox.yaml: xds.limits.maxRequestBytes: must be at least 65536, was 1024 [server]",
        "signalbox.yaml: xds.limits.maxNamesPerSubscription: must be at least 1, was 0 [server]",
        "signalbox.yaml: xds.limits.maxPendingRequests: must be at least 1, was -1 [server]",
        "signalbox.yaml: xds.limits.handshakeTimeout: must be longer than 0, was PT0S [server]",
        "signalbox.yaml: xds.maxConnectionAge: must be longer than 0, was PT0S [server]");
  }
}
