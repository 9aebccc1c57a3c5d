package io.signalbox.controlplane.xds;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Verifies client certificates against {@code xds.tls.clientCaFile} with the JDK's PKIX checks, and
 * when one fails says whose certificate it was: the handshake's failure reaches the audit only as
 * an exception, and "not trusted" without the subject does not help an operator find the client.
 */
final class ClientCertificateTrust extends X509ExtendedTrustManager {

  /** A client certificate that does not chain to the configured CAs (or is expired, or not yet valid). */
  static final class Untrusted extends CertificateException {
    private final String subject;

    Untrusted(String subject, CertificateException cause) {
      super("'" + subject + "': " + cause.getMessage(), cause);
      this.subject = subject;
    }

    String subject() {
      return subject;
    }
  }

  private final X509ExtendedTrustManager pkix;

  ClientCertificateTrust(List<X509Certificate> cas) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      for (int i = 0; i < cas.size(); i++) {
        store.setCertificateEntry("ca-" + i, cas.get(i));
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      X509ExtendedTrustManager found = null;
      for (TrustManager tm : factory.getTrustManagers()) {
        if (tm instanceof X509ExtendedTrustManager x) {
          found = x;
        }
      }
      if (found == null) {
        throw new IllegalStateException("the JDK offers no X509ExtendedTrustManager");
      }
      this.pkix = found;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build a trust store from the client CAs: " + e, e);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    try {
      pkix.checkClientTrusted(chain, authType, engine);
    } catch (CertificateException e) {
      throw untrusted(chain, e);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    try {
      pkix.checkClientTrusted(chain, authType, socket);
    } catch (CertificateException e) {
      throw untrusted(chain, e);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    try {
      pkix.checkClientTrusted(chain, authType);
    } catch (CertificateException e) {
      throw untrusted(chain, e);
    }
  }

  private static Untrusted untrusted(X509Certificate[] chain, CertificateException cause) {
    String subject = chain == null || chain.length == 0 ? "-" : chain[0].getSubjectX500Principal().getName();
    return new Untrusted(subject, cause);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("the xDS server does not verify servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("the xDS server does not verify servers");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("the xDS server does not verify servers");
  }

  /**
   * None named: the handshake's list of acceptable CAs is what a client uses to pick its certificate,
   * and a client whose certificate is not on it sends none. Naming none, every client sends what it
   * has, so a certificate from another CA is refused as untrusted with its subject in the audit, and
   * a client already holding a certificate of a CA rotated in meanwhile is not turned away.
   */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
