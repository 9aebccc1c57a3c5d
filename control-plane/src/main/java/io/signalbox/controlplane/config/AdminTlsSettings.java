package io.signalbox.controlplane.config;

import java.nio.file.Path;

/** {@code admin.tls}: serve the admin API over HTTPS with this certificate and key (PEM), re-read when they change. */
public record AdminTlsSettings(Path certFile, Path keyFile) {

  AdminTlsSettings resolvedAgainst(Path baseDir) {
    return new AdminTlsSettings(XdsTlsSettings.resolve(baseDir, certFile), XdsTlsSettings.resolve(baseDir, keyFile));
  }
}
