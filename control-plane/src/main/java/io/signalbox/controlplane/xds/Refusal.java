package io.signalbox.controlplane.xds;

import java.time.Instant;
import java.util.Locale;

/**
 * A connection or stream the xDS server refused because it could not establish who the client is,
 * or because the client is not who it claims to be. Each one is counted
 * ({@code signalbox_xds_auth_failures_total{reason}}), logged (rate-limited) and audited.
 *
 * @param peer the client's address
 * @param node the node the client claimed ({@code 'id' (cluster 'c')}), or {@code -} before any request
 * @param subject the client certificate's subject, or {@code -} without one
 * @param message what was wrong, as the client is told
 */
public record Refusal(Instant at, Reason reason, String peer, String node, String subject, String message) {

  /** Why; the metric's {@code reason} label is the lower-case name. */
  public enum Reason {
    /** A plaintext client on the TLS port. */
    PLAINTEXT,
    /** No client certificate, while {@code xds.tls.clientCaFile} requires one. */
    NO_CLIENT_CERTIFICATE,
    /** A client certificate that does not chain to {@code xds.tls.clientCaFile} (or has expired). */
    UNTRUSTED_CERTIFICATE,
    /** Any other failed TLS handshake (protocol version, ciphers, the client refusing our certificate). */
    TLS_HANDSHAKE,
    /** The node's fields cannot be checked against {@code xds.tls.nodeIdentity} (missing or unsafe). */
    INVALID_NODE,
    /** The node does not match the certificate's identity. */
    IDENTITY_MISMATCH,
    /** A request claimed another node id or cluster than the stream's first. */
    NODE_CHANGED;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The audit entry's reason text: everything an operator needs to find the client. */
  public String auditText() {
    return reason.label() + ": " + message + " (peer " + peer + ", certificate subject " + subject + ")";
  }
}
