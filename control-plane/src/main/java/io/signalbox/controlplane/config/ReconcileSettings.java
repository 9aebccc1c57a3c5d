package io.signalbox.controlplane.config;

import java.time.Duration;

/**
 * How input bursts coalesce into epochs: a change after {@code debounce} without a build is built
 * at once; closer changes are built {@code debounce} after the last one, but never later than
 * {@code maxDelay} after the first one, so a steady trickle still publishes.
 */
public record ReconcileSettings(Duration debounce, Duration maxDelay, Duration holdStable) {
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(100);
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1);
  /** A held mass removal that stays unchanged this long is applied without confirmation. */
  public static final Duration DEFAULT_HOLD_STABLE = Duration.ofMinutes(5);

  public ReconcileSettings {
    debounce = debounce == null ? DEFAULT_DEBOUNCE : debounce;
    maxDelay = maxDelay == null ? DEFAULT_MAX_DELAY : maxDelay;
    holdStable = holdStable == null ? DEFAULT_HOLD_STABLE : holdStable;
  }

  public ReconcileSettings(Duration debounce, Duration maxDelay) {
    this(debounce, maxDelay, null);
  }

  public static ReconcileSettings defaults() {
    return new ReconcileSettings(null, null, null);
  }
}
