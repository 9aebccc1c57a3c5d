package io.signalbox.controlplane.config;

import java.time.Duration;

/**
 * How input bursts coalesce into epochs: a change after {@code debounce} without a build is built
 * at once; closer changes are built {@code debounce} after the last one, but never later than
 * {@code maxDelay} after the first one, so a steady trickle still publishes.
 *
 * @param configRemovalPercent a config reload that removes more than this share of the listeners,
 *     the route configurations or the declared clusters (or every one of a kind) is held until
 *     confirmed, as a mass endpoint removal is: an emptied or half-synced config file is the most
 *     common bad input there is
 */
public record ReconcileSettings(Duration debounce, Duration maxDelay, Duration holdStable,
    Integer configRemovalPercent) {
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(100);
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1);
  /** A held mass removal that stays unchanged this long is applied without confirmation. */
  public static final Duration DEFAULT_HOLD_STABLE = Duration.ofMinutes(5);
  public static final int DEFAULT_CONFIG_REMOVAL_PERCENT = 50;

  public ReconcileSettings {
    debounce = debounce == null ? DEFAULT_DEBOUNCE : debounce;
    maxDelay = maxDelay == null ? DEFAULT_MAX_DELAY : maxDelay;
    holdStable = holdStable == null ? DEFAULT_HOLD_STABLE : holdStable;
    configRemovalPercent = configRemovalPercent == null ? DEFAULT_CONFIG_REMOVAL_PERCENT : configRemovalPercent;
  }

  public ReconcileSettings(Duration debounce, Duration maxDelay) {
    this(debounce, maxDelay, null, null);
  }

  public ReconcileSettings(Duration debounce, Duration maxDelay, Duration holdStable) {
    this(debounce, maxDelay, holdStable, null);
  }

  public static ReconcileSettings defaults() {
    return new ReconcileSettings(null, null, null, null);
  }
}
