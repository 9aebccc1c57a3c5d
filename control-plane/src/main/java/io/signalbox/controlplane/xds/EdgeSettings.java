package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.config.XdsSettings;
import io.signalbox.controlplane.config.XdsTlsSettings;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.NodeIdentity;
import java.time.Duration;
import java.util.Objects;

/**
 * How the xDS server meets its clients: TLS (certificate files, watched), node identity, the limits
 * no client may exceed, and how long a connection lives.
 *
 * @param tls the certificate, key and client CA files; null serves plaintext
 * @param identity the node identity template; null when nodes are not bound to certificates
 * @param clientKinds what kind of client each node is, and so how DRAINING endpoints are sent to it
 */
public record EdgeSettings(CertificateFiles.Paths tls, NodeIdentity identity, XdsLimitsSettings limits,
    Duration maxConnectionAge, Duration maxConnectionAgeGrace, ClientKinds clientKinds) {

  public EdgeSettings(CertificateFiles.Paths tls, NodeIdentity identity, XdsLimitsSettings limits,
      Duration maxConnectionAge, Duration maxConnectionAgeGrace) {
    this(tls, identity, limits, maxConnectionAge, maxConnectionAgeGrace, ClientKinds.NONE);
  }

  public EdgeSettings {
    clientKinds = clientKinds == null ? ClientKinds.NONE : clientKinds;
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(maxConnectionAge, "maxConnectionAge");
    Objects.requireNonNull(maxConnectionAgeGrace, "maxConnectionAgeGrace");
    if (identity != null && (tls == null || tls.caFile() == null)) {
      throw new IllegalArgumentException("a node identity needs client certificates (xds.tls.clientCaFile)");
    }
  }

  /** Plaintext with the default limits: the quickstart, and tests that are not about the edge. */
  public static EdgeSettings plaintext() {
    return from(XdsSettings.defaults());
  }

  /** The config's {@code xds} section, already checked ({@code SecurityChecks}). */
  public static EdgeSettings from(XdsSettings xds) {
    XdsTlsSettings tls = xds.tls();
    return new EdgeSettings(
        tls == null ? null : new CertificateFiles.Paths("xds.tls", tls.certFile(), tls.keyFile(), tls.clientCaFile()),
        tls == null || tls.nodeIdentity() == null ? null : new NodeIdentity(tls.nodeIdentity()),
        xds.limits(), xds.maxConnectionAge(), xds.maxConnectionAgeGrace(), new ClientKinds(xds.clientKinds()));
  }

  /** For the startup log line: which mode runs. */
  String mode() {
    if (tls == null) {
      return "plaintext: anyone who can reach this port can read the configuration and claim any node";
    }
    if (tls.caFile() == null) {
      return "TLS, no client certificates: any client may claim any node";
    }
    return identity == null ? "mutual TLS; nodes are not bound to certificates (xds.tls.nodeIdentity unset)"
        : "mutual TLS; a node must present URI SAN " + identity.template();
  }
}
