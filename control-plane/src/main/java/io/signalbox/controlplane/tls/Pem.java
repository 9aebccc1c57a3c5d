package io.signalbox.controlplane.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * PEM as cert-manager, SPIRE and openssl write it. Keys are read by BouncyCastle's parser because
 * the JDK reads only unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), while cert-manager writes
 * PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) unless told otherwise and openssl writes SEC1 for EC keys.
 * Every failure is a {@link Read.Invalid} naming what was wrong, never an exception.
 */
public final class Pem {

  private Pem() {}

  /** What reading one PEM file gave. */
  public sealed interface Read<T> {
    record Ok<T>(T value) implements Read<T> {}

    record Invalid<T>(String message) implements Read<T> {}
  }

  /** Every certificate in {@code pem}, in order (a chain leaf first, or a CA bundle). */
  public static Read<List<X509Certificate>> certificates(byte[] pem) {
    try {
      List<X509Certificate> certs = new ArrayList<>();
      for (var c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
        certs.add((X509Certificate) c);
      }
      if (certs.isEmpty()) {
        return new Read.Invalid<>("no PEM certificate in it");
      }
      return new Read.Ok<>(List.copyOf(certs));
    } catch (CertificateException e) {
      return new Read.Invalid<>("not a PEM certificate: " + e.getMessage());
    }
  }

  /** The one private key in {@code pem}: PKCS#8, PKCS#1 (RSA) or SEC1 (EC), unencrypted. */
  public static Read<PrivateKey> privateKey(byte[] pem) {
    try (Reader reader = new InputStreamReader(new ByteArrayInputStream(pem), StandardCharsets.US_ASCII);
        PEMParser parser = new PEMParser(reader)) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (o instanceof PEMKeyPair pair) {
          return new Read.Ok<>(converter.getKeyPair(pair).getPrivate());
        }
        if (o instanceof PrivateKeyInfo info) {
          return new Read.Ok<>(converter.getPrivateKey(info));
        }
        if (!(o instanceof org.bouncycastle.asn1.x9.X9ECParameters)) { // openssl's "EC PARAMETERS" block precedes the key
          return new Read.Invalid<>("expected an unencrypted private key, found " + o.getClass().getSimpleName());
        }
      }
      return new Read.Invalid<>("no PEM private key in it");
    } catch (IOException e) {
      return new Read.Invalid<>("not a PEM private key: " + e.getMessage());
    }
  }

  /** Whether {@code key} is the private half of {@code certificate}'s public key (a signature round trip). */
  public static boolean matches(PrivateKey key, X509Certificate certificate) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default -> null;
    };
    if (algorithm == null || !key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())
        && !(algorithm.equals("Ed25519") && certificate.getPublicKey().getAlgorithm().startsWith("Ed"))) {
      return false;
    }
    try {
      byte[] probe = "signalbox key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
