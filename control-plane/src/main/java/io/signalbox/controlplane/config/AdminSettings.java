package io.signalbox.controlplane.config;

import java.util.List;

/**
 * The admin HTTP server (API, dashboard, metrics, health).
 *
 * @param address defaults to loopback when no tokens are configured: an open admin API must not be
 *     reachable from the network (the quickstart), and to all interfaces once tokens guard it
 * @param openMetrics whether {@code /metrics} is served without a token
 * @param tls serve HTTPS with this certificate; null serves plain HTTP
 */
public record AdminSettings(Integer port, String address, List<TokenSettings> tokens, Boolean openMetrics,
    AdminTlsSettings tls) {
  public static final int DEFAULT_PORT = 8080;
  public static final String LOOPBACK = "127.0.0.1";
  public static final String ALL_INTERFACES = "0.0.0.0";

  public AdminSettings {
    port = port == null ? DEFAULT_PORT : port;
    tokens = tokens == null ? List.of() : List.copyOf(tokens);
    address = address != null ? address : tokens.isEmpty() ? LOOPBACK : ALL_INTERFACES;
    openMetrics = openMetrics == null ? Boolean.TRUE : openMetrics;
  }

  public AdminSettings(Integer port, String address, List<TokenSettings> tokens, Boolean openMetrics) {
    this(port, address, tokens, openMetrics, null);
  }

  public static AdminSettings defaults() {
    return new AdminSettings(null, null, null, null);
  }

  AdminSettings resolvedAgainst(java.nio.file.Path baseDir) {
    return tls == null ? this : new AdminSettings(port, address, tokens, openMetrics, tls.resolvedAgainst(baseDir));
  }
}
