package io.signalbox.model;

import java.time.Duration;
import java.util.List;

/**
 * A route's retries. {@code retryOn} mixes Envoy's HTTP conditions ({@code 5xx}, {@code reset},
 * {@code connect-failure}, ...) and gRPC status names ({@code unavailable}, {@code cancelled}, ...),
 * as Envoy's {@code retry_on} does.
 *
 * @param numRetries retries after the first attempt; null for the client's default (1)
 * @param perTryTimeout null for none (each attempt may use what is left of the route timeout)
 * @param backoff null for the client's default (25 ms base, 250 ms max)
 * @param retriableStatusCodes HTTP statuses retried under {@code retriable-status-codes}
 */
public record RetryPolicySpec(
    List<String> retryOn, Integer numRetries, Duration perTryTimeout, BackoffSpec backoff,
    List<Integer> retriableStatusCodes) {

  public RetryPolicySpec {
    retryOn = retryOn == null ? List.of() : List.copyOf(retryOn);
    retriableStatusCodes = retriableStatusCodes == null ? List.of() : List.copyOf(retriableStatusCodes);
  }

  /** Exponential back-off between attempts: from {@code base}, capped at {@code max}. */
  public record BackoffSpec(Duration base, Duration max) {}
}
