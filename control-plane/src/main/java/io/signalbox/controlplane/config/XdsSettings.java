package io.signalbox.controlplane.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the xDS (ADS) gRPC server listens, how it authenticates clients, and what no client may
 * exceed. Absent values take the defaults below.
 *
 * @param tls TLS or mutual TLS on the xDS port; null serves plaintext (the quickstart)
 * @param maxConnectionAge a connection older than this is asked to reconnect (HTTP/2 GOAWAY), so
 *     clients spread across replicas again after a rolling restart
 * @param maxConnectionAgeGrace how long the streams of such a connection may go on before it is closed
 * @param clientKinds node groups whose client kind (and handling of DRAINING) the config states
 * @param loadReportingInterval how often clients send load reports (LRS); told to each LRS stream
 */
public record XdsSettings(Integer port, String address, XdsTlsSettings tls, XdsLimitsSettings limits,
    Duration maxConnectionAge, Duration maxConnectionAgeGrace, java.util.List<ClientKindSettings> clientKinds,
    Duration loadReportingInterval) {
  public static final int DEFAULT_PORT = 18000;
  public static final String DEFAULT_ADDRESS = "0.0.0.0";
  public static final Duration DEFAULT_MAX_CONNECTION_AGE = Duration.ofMinutes(30);
  public static final Duration DEFAULT_MAX_CONNECTION_AGE_GRACE = Duration.ofMinutes(1);
  public static final Duration DEFAULT_LOAD_REPORTING_INTERVAL = Duration.ofSeconds(10);

  public XdsSettings {
    port = port == null ? DEFAULT_PORT : port;
    address = address == null ? DEFAULT_ADDRESS : address;
    limits = limits == null ? XdsLimitsSettings.defaults() : limits;
    maxConnectionAge = maxConnectionAge == null ? DEFAULT_MAX_CONNECTION_AGE : maxConnectionAge;
    maxConnectionAgeGrace = maxConnectionAgeGrace == null ? DEFAULT_MAX_CONNECTION_AGE_GRACE : maxConnectionAgeGrace;
    clientKinds = clientKinds == null ? java.util.List.of() : java.util.List.copyOf(clientKinds);
    loadReportingInterval = loadReportingInterval == null ? DEFAULT_LOAD_REPORTING_INTERVAL : loadReportingInterval;
  }

  /** The settings before {@code loadReportingInterval} existed. */
  public XdsSettings(Integer port, String address, XdsTlsSettings tls, XdsLimitsSettings limits,
      Duration maxConnectionAge, Duration maxConnectionAgeGrace, java.util.List<ClientKindSettings> clientKinds) {
    this(port, address, tls, limits, maxConnectionAge, maxConnectionAgeGrace, clientKinds, null);
  }

  /** The settings before {@code clientKinds} existed. */
  public XdsSettings(Integer port, String address, XdsTlsSettings tls, XdsLimitsSettings limits,
      Duration maxConnectionAge, Duration maxConnectionAgeGrace) {
    this(port, address, tls, limits, maxConnectionAge, maxConnectionAgeGrace, null);
  }

  public XdsSettings(Integer port, String address) {
    this(port, address, null, null, null, null);
  }

  public static XdsSettings defaults() {
    return new XdsSettings(null, null);
  }

  XdsSettings resolvedAgainst(Path baseDir) {
    return tls == null ? this
        : new XdsSettings(port, address, tls.resolvedAgainst(baseDir), limits, maxConnectionAge, maxConnectionAgeGrace,
            clientKinds, loadReportingInterval);
  }
}
