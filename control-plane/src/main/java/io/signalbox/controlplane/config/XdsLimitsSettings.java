package io.signalbox.controlplane.config;

import java.time.Duration;

/**
 * {@code xds.limits}: what one client may hold of the xDS server. The defaults fit a replica with 2
 * cores and a 1 GB heap (docs/security.md works the numbers out); each is refused with a gRPC status
 * that names the limit.
 *
 * @param maxStreamsPerConnection ADS streams one connection may have open at once
 * @param maxRequestBytes the largest request message accepted
 * @param maxNamesPerSubscription resource names one stream may subscribe to, per type
 * @param maxPendingRequests requests a stream may send without the server answering in between
 * @param permitKeepAliveTime the most often a client may ping; more often and the connection is closed
 * @param handshakeTimeout how long a new connection has to finish TLS and HTTP/2 set-up
 */
public record XdsLimitsSettings(Integer maxStreamsPerConnection, Integer maxRequestBytes,
    Integer maxNamesPerSubscription, Integer maxPendingRequests, Duration permitKeepAliveTime,
    Duration handshakeTimeout) {
  public static final int DEFAULT_MAX_STREAMS_PER_CONNECTION = 16;
  public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_NAMES_PER_SUBSCRIPTION = 20_000;
  public static final int DEFAULT_MAX_PENDING_REQUESTS = 1000;
  public static final Duration DEFAULT_PERMIT_KEEP_ALIVE_TIME = Duration.ofSeconds(10);
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  public XdsLimitsSettings {
    maxStreamsPerConnection = maxStreamsPerConnection == null
        ? DEFAULT_MAX_STREAMS_PER_CONNECTION : maxStreamsPerConnection;
    maxRequestBytes = maxRequestBytes == null ? DEFAULT_MAX_REQUEST_BYTES : maxRequestBytes;
    maxNamesPerSubscription = maxNamesPerSubscription == null
        ? DEFAULT_MAX_NAMES_PER_SUBSCRIPTION : maxNamesPerSubscription;
    maxPendingRequests = maxPendingRequests == null ? DEFAULT_MAX_PENDING_REQUESTS : maxPendingRequests;
    permitKeepAliveTime = permitKeepAliveTime == null ? DEFAULT_PERMIT_KEEP_ALIVE_TIME : permitKeepAliveTime;
    handshakeTimeout = handshakeTimeout == null ? DEFAULT_HANDSHAKE_TIMEOUT : handshakeTimeout;
  }

  public static XdsLimitsSettings defaults() {
    return new XdsLimitsSettings(null, null, null, null, null, null);
  }
}
