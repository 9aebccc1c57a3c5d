package io.signalbox.controlplane.config;

import java.time.Duration;

/**
 * How input bursts coalesce into epochs: build {@code debounce} after the last change, but never
 * later than {@code maxDelay} after the first one, so a steady trickle still publishes.
 */
public record ReconcileSettings(Duration debounce, Duration maxDelay) {
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(100);
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1);

  public ReconcileSettings {
    debounce = debounce == null ? DEFAULT_DEBOUNCE : debounce;
    maxDelay = maxDelay == null ? DEFAULT_MAX_DELAY : maxDelay;
  }

  public static ReconcileSettings defaults() {
    return new ReconcileSettings(null, null);
  }
}
