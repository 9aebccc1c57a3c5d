package io.signalbox.controlplane.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * One cluster × locality (× endpoint, when a client reports per endpoint) during one interval,
 * summed over every client and every replica.
 *
 * @param intervalStart the interval's start; intervals are aligned to multiples of the reporting
 *     interval since the epoch, so every replica's rows for the same interval line up
 * @param endpoint {@code address:port}, or {@code ""} for the locality as a whole (what gRPC
 *     clients send; Envoy sends both when asked for endpoint granularity)
 * @param issued requests issued during the interval (the reports' counts are since each client's
 *     previous report, so the sum of the reports received in the interval)
 * @param succeeded requests that completed successfully during the interval
 * @param errored requests that completed with an error during the interval
 * @param inFlight a gauge: the sum of each client's latest in-progress count reported in the interval
 */
public record LocalityLoad(
    Instant intervalStart,
    String cluster,
    Locality locality,
    String endpoint,
    long issued,
    long succeeded,
    long errored,
    long inFlight) {

  public LocalityLoad {
    Objects.requireNonNull(intervalStart, "intervalStart");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(locality, "locality");
    endpoint = Objects.requireNonNullElse(endpoint, "");
  }

  /** Errored share of the completed requests, or 0 with none completed. */
  public double errorRate() {
    long completed = succeeded + errored;
    return completed == 0 ? 0 : (double) errored / completed;
  }
}
