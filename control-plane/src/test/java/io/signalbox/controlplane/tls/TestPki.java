package io.signalbox.controlplane.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made in the test, with BouncyCastle: CAs, server certificates (for
 * {@code localhost} and {@code 127.0.0.1}) and client certificates with URI SANs, written as PEM
 * the way cert-manager and SPIRE write them.
 */
public final class TestPki {

  private static final AtomicLong SERIALS = new AtomicLong(1000);

  /** A certificate, its key, and the CA that issued it (itself for a CA). */
  public record Issued(X509Certificate certificate, KeyPair keys) {

    /** Writes {@code <name>.pem} (certificate) and {@code <name>-key.pem} (PKCS#8 key) into {@code dir}. */
    public PemFiles written(Path dir, String name) {
      Path cert = write(dir.resolve(name + ".pem"), pem(certificate));
      Path key = write(dir.resolve(name + "-key.pem"), pem(keys.getPrivate()));
      return new PemFiles(cert, key);
    }

    public BigInteger serial() {
      return certificate.getSerialNumber();
    }
  }

  /** Where an issued certificate and its key were written. */
  public record PemFiles(Path cert, Path key) {}

  private final Issued ca;

  private TestPki(Issued ca) {
    this.ca = ca;
  }

  /** A new self-signed CA named {@code CN=<name>}. */
  public static TestPki ca(String name) {
    KeyPair keys = keyPair();
    X500Name subject = new X500Name("CN=" + name);
    try {
      X509v3CertificateBuilder builder = builder(subject, subject, keys)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new TestPki(new Issued(sign(builder, keys), keys));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Issued certificate() {
    return ca;
  }

  /** Writes the CA certificate (PEM) to {@code file}. */
  public Path writeCa(Path file) {
    return write(file, pem(ca.certificate()));
  }

  /** A server certificate for {@code localhost} and {@code 127.0.0.1}. */
  public Issued server(String name) {
    return issue(name, KeyPurposeId.id_kp_serverAuth, List.of(
        new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
  }

  /** A client certificate carrying {@code uriSans} (SPIFFE IDs). */
  public Issued client(String name, String... uriSans) {
    List<GeneralName> sans = new ArrayList<>();
    for (String uri : uriSans) {
      sans.add(new GeneralName(GeneralName.uniformResourceIdentifier, uri));
    }
    return issue(name, KeyPurposeId.id_kp_clientAuth, sans);
  }

  private Issued issue(String name, KeyPurposeId purpose, List<GeneralName> sans) {
    KeyPair keys = keyPair();
    try {
      X509v3CertificateBuilder builder = builder(new X500Name(ca.certificate().getSubjectX500Principal().getName()),
          new X500Name("CN=" + name), keys)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      if (!sans.isEmpty()) {
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(sans.toArray(GeneralName[]::new)));
      }
      return new Issued(sign(builder, ca.keys()), keys);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIALS.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys) {
    try {
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    } catch (OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair keyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** PEM of certificates, keys (PKCS#8 for a {@code PrivateKey}, the legacy form for a {@code KeyPair}). */
  public static String pem(Object... objects) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      for (Object o : objects) {
        writer.writeObject(o instanceof java.security.PrivateKey key
            ? new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null) : o);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Replaces {@code file} by rename, so a watcher never sees half of it. */
  public static Path write(Path file, String content) {
    try {
      Path tmp = java.nio.file.Files.createTempFile(file.toAbsolutePath().getParent(), "." + file.getFileName(), ".tmp");
      java.nio.file.Files.writeString(tmp, content);
      return java.nio.file.Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
