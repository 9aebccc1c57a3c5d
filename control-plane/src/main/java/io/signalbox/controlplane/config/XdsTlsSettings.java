package io.signalbox.controlplane.config;

import java.nio.file.Path;

/**
 * {@code xds.tls}: the xDS server's certificate and key (PEM) and, for mutual TLS, the CA bundle
 * client certificates must chain to. Every file is watched and re-read when it changes.
 *
 * @param clientCaFile null: any client may connect (TLS only); set: a client certificate issued by
 *     one of these CAs is required
 * @param nodeIdentity a template over the node ({@code {nodeId}}, {@code {nodeCluster}}), e.g.
 *     {@code spiffe://example.org/{nodeId}}: a stream's node must match one of its certificate's URI
 *     SANs; null: any trusted certificate may claim any node
 */
public record XdsTlsSettings(Path certFile, Path keyFile, Path clientCaFile, String nodeIdentity) {

  XdsTlsSettings resolvedAgainst(Path baseDir) {
    return new XdsTlsSettings(resolve(baseDir, certFile), resolve(baseDir, keyFile), resolve(baseDir, clientCaFile),
        nodeIdentity);
  }

  static Path resolve(Path baseDir, Path file) {
    return file == null ? null : baseDir.resolve(file).normalize();
  }
}
