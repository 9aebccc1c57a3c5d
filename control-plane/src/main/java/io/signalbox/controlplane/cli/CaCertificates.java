package io.signalbox.controlplane.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --cacert FILE}: the CA certificates (PEM) that an https admin server's certificate must
 * chain to, instead of the JVM's trust store. Read when the command line is parsed, so a missing or
 * unreadable file is a usage error naming it.
 */
final class CaCertificates implements ITypeConverter<CaCertificates.Trust> {

  /** The file and the TLS context that trusts exactly its certificates. */
  record Trust(Path file, SSLContext context) {}

  @Override
  public Trust convert(String value) {
    Path file = Path.of(value);
    Collection<? extends Certificate> certificates;
    try (InputStream in = Files.newInputStream(file)) {
      certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (NoSuchFileException e) {
      throw new TypeConversionException("no such file: " + value);
    } catch (IOException | GeneralSecurityException e) {
      throw new TypeConversionException("cannot read PEM certificates from " + value + ": " + e.getMessage());
    }
    if (certificates.isEmpty()) {
      throw new TypeConversionException("no PEM certificate in " + value);
    }
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : certificates) {
        store.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return new Trust(file, context);
    } catch (IOException | GeneralSecurityException e) {
      throw new TypeConversionException("cannot trust the certificates in " + value + ": " + e.getMessage());
    }
  }
}
