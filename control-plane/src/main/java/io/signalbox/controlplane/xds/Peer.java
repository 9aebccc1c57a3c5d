package io.signalbox.controlplane.xds;

import io.grpc.Attributes;
import io.grpc.Grpc;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Who is at the other end of a stream, as the transport says: the address and, over mutual TLS,
 * the verified client certificate's subject and URI SANs. java-control-plane's callbacks never see
 * this; the stream's gate ({@link StreamGate}) reads it from the call's transport attributes.
 *
 * @param subject the client certificate's subject, or null without one
 * @param uriSans the certificate's URI subject alternative names (SPIFFE IDs live here)
 */
record Peer(String address, String subject, List<String> uriSans) {

  private static final int URI_SAN = 6;

  Peer {
    uriSans = List.copyOf(uriSans);
  }

  static Peer of(Attributes transport) {
    String address = address(transport.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    SSLSession session = transport.get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    if (session == null) {
      return new Peer(address, null, List.of());
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return new Peer(address, null, List.of());
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return new Peer(address, null, List.of());
    }
    return new Peer(address, leaf.getSubjectX500Principal().getName(), uriSans(leaf));
  }

  static String address(SocketAddress address) {
    if (address instanceof InetSocketAddress inet) {
      String host = inet.getHostString();
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + inet.getPort();
    }
    return address == null ? "unknown" : address.toString();
  }

  static List<String> uriSans(X509Certificate certificate) {
    List<String> uris = new ArrayList<>();
    try {
      Collection<List<?>> names = certificate.getSubjectAlternativeNames();
      if (names != null) {
        for (List<?> name : names) {
          if (name.size() == 2 && Integer.valueOf(URI_SAN).equals(name.get(0)) && name.get(1) instanceof String uri) {
            uris.add(uri);
          }
        }
      }
    } catch (CertificateParsingException e) {
      // A certificate the TLS layer verified but whose SAN extension we cannot read has no usable identity.
    }
    return uris;
  }

  boolean hasCertificate() {
    return subject != null;
  }
}
