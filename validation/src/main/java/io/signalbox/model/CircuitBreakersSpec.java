package io.signalbox.model;

/** Default-priority circuit-breaker thresholds; null components take Envoy's defaults. */
public record CircuitBreakersSpec(
    Integer maxConnections, Integer maxPendingRequests, Integer maxRequests, Integer maxRetries) {}
