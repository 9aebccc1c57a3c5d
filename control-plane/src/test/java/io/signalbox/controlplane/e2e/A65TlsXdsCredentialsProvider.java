package io.signalbox.controlplane.e2e;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.xds.XdsCredentialsProvider;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The {@code tls} channel credentials of gRFC A65 ("mTLS Credentials in xDS Bootstrap File") for
 * grpc-xds 1.85.1, which reads its {@code channel_creds} entry {@code {"type": "tls", "config":
 * {...}}} but ignores the config: its own {@code TlsXdsCredentialsProvider.newChannelCredentials}
 * returns {@code TlsChannelCredentials.create()} (system roots, no client certificate; the A65
 * implementation is grpc-java PR #12255, not released). Registered through
 * {@code META-INF/services/io.grpc.xds.XdsCredentialsProvider} at a higher priority under the same
 * name, it reads A65's keys, {@code ca_certificate_file}, {@code certificate_file} and
 * {@code private_key_file}, so the end-to-end test's bootstrap is the one A65 specifies. Delete it
 * once grpc-xds implements A65.
 */
public final class A65TlsXdsCredentialsProvider extends XdsCredentialsProvider {

  @Override
  protected ChannelCredentials newChannelCredentials(Map<String, ?> config) {
    TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
    try {
      if (config != null && config.get("ca_certificate_file") instanceof String ca) {
        builder.trustManager(new File(ca));
      }
      if (config != null && config.get("certificate_file") instanceof String cert
          && config.get("private_key_file") instanceof String key) {
        builder.keyManager(new File(cert), new File(key));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bootstrap's TLS files", e);
    }
    return builder.build();
  }

  @Override
  protected String getName() {
    return "tls";
  }

  @Override
  public boolean isAvailable() {
    return true;
  }

  @Override
  public int priority() {
    return 10; // grpc-xds's own "tls" provider has 5
  }
}
