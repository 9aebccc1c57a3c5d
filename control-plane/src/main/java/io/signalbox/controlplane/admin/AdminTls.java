package io.signalbox.controlplane.admin;

import io.signalbox.controlplane.config.AdminTlsSettings;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.Pem;
import io.signalbox.controlplane.tls.TlsMaterial;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTPS for the admin API ({@code admin.tls}): Jetty's TLS with the PEM certificate and key, which
 * are watched and swapped into Jetty ({@link SslContextFactory#reload}) when they change; open
 * connections keep their session.
 */
public final class AdminTls implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AdminTls.class);
  // The key store lives only in memory; Jetty wants a password for its entry all the same.
  private static final char[] IN_MEMORY = "signalbox".toCharArray();

  private final SslContextFactory.Server factory;
  private final CertificateFiles files;

  private AdminTls(SslContextFactory.Server factory, CertificateFiles files) {
    this.factory = factory;
    this.files = files;
  }

  /**
   * Reads the certificate and starts watching its files (their threads are the composition root's
   * to start: it calls this and hands the result to {@link AdminServer#start}, which closes it).
   *
   * @return null when {@code settings} is null: the admin API is served over plain HTTP
   * @throws IllegalStateException naming the file when the certificate or key cannot be used
   */
  public static AdminTls start(AdminTlsSettings settings) {
    if (settings == null) {
      return null;
    }
    CertificateFiles.Paths paths = new CertificateFiles.Paths("admin.tls", settings.certFile(), settings.keyFile(), null);
    if (CertificateFiles.read(paths) instanceof Pem.Read.Invalid<TlsMaterial> invalid) {
      throw new IllegalStateException(invalid.message());
    }
    SslContextFactory.Server factory = new SslContextFactory.Server();
    factory.setKeyStorePassword(new String(IN_MEMORY));
    CertificateFiles files = CertificateFiles.watch(paths, material -> reload(factory, material));
    factory.setKeyStore(keyStore(files.current()));
    return new AdminTls(factory, files);
  }

  private static void reload(SslContextFactory.Server factory, TlsMaterial material) {
    try {
      factory.reload(f -> f.setKeyStore(keyStore(material)));
    } catch (Exception e) {
      log.warn("admin.tls: could not switch to certificate {}, still serving the previous one: {}",
          material.describe(), e.toString());
    }
  }

  private static KeyStore keyStore(TlsMaterial material) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("admin", material.key(), IN_MEMORY, material.chain().toArray(Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot hold the admin certificate " + material.describe() + ": " + e, e);
    }
  }

  /** An HTTPS connector; clients may connect by IP or any name, the certificate is theirs to check. */
  ServerConnector connector(Server server, HttpConfiguration http) {
    HttpConfiguration https = new HttpConfiguration(http);
    https.addCustomizer(new SecureRequestCustomizer(false));
    return new ServerConnector(server, new SslConnectionFactory(factory, HttpVersion.HTTP_1_1.asString()),
        new HttpConnectionFactory(https));
  }

  @Override
  public void close() {
    files.close();
  }
}
