package io.signalbox.model;

import java.time.Duration;

/**
 * Active health checking. HTTP when {@code httpPath} is set, gRPC when {@code grpc} is true,
 * otherwise TCP connect. Setting both {@code httpPath} and {@code grpc} is a violation.
 */
public record HealthCheckSpec(
    Duration timeout,
    Duration interval,
    Integer unhealthyThreshold,
    Integer healthyThreshold,
    String httpPath,
    Boolean grpc) {}
