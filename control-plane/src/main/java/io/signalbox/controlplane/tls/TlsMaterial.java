package io.signalbox.controlplane.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * One consistent set of what a TLS server presents and trusts: a key, the certificate chain it
 * belongs to (leaf first), and the CAs client certificates must chain to (empty: no client
 * certificates are asked for).
 */
public record TlsMaterial(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> clientCas) {

  public TlsMaterial {
    Objects.requireNonNull(key, "key");
    chain = List.copyOf(chain);
    clientCas = List.copyOf(clientCas);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a certificate chain needs at least the leaf");
    }
  }

  public X509Certificate leaf() {
    return chain.get(0);
  }

  /** For logs: whose certificate, which one, until when. */
  public String describe() {
    X509Certificate leaf = leaf();
    return "'" + leaf.getSubjectX500Principal().getName() + "' (serial " + leaf.getSerialNumber().toString(16)
        + ", valid until " + leaf.getNotAfter().toInstant() + ")"
        + (clientCas.isEmpty() ? "" : ", trusting " + clientCas.size() + " client CA"
            + (clientCas.size() == 1 ? "" : "s"));
  }
}
