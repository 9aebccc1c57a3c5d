package io.signalbox.controlplane.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code rollout:} how epochs reach the fleet and when they roll back.
 *
 * @param settle how long an epoch must be held by every client, NACK-free, before it is SAFE
 * @param rollbackOnNack roll back automatically when any client NACKs the newest epoch (default true)
 * @param waves canary waves in order; clients matching none form the last wave
 * @param checkInterval how often the fleet's convergence is checked (SAFE, waves, rollback)
 */
public record RolloutSettings(Duration settle, Boolean rollbackOnNack, List<WaveSettings> waves,
    Duration checkInterval) {

  /**
   * One canary wave: clients whose {@code node.cluster} is listed, or whose node metadata has every
   * listed key with that string value.
   */
  public record WaveSettings(String name, List<String> nodeClusters, Map<String, String> metadata, Duration bake) {
    public static final Duration DEFAULT_BAKE = Duration.ofSeconds(30);

    public WaveSettings {
      nodeClusters = nodeClusters == null ? List.of() : List.copyOf(nodeClusters);
      metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
      bake = bake == null ? DEFAULT_BAKE : bake;
    }
  }

  public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(200);

  public RolloutSettings {
    settle = settle == null ? DEFAULT_SETTLE : settle;
    rollbackOnNack = rollbackOnNack == null ? Boolean.TRUE : rollbackOnNack;
    waves = waves == null ? List.of() : List.copyOf(waves);
    checkInterval = checkInterval == null ? DEFAULT_CHECK_INTERVAL : checkInterval;
  }

  /** The settings before {@code checkInterval} existed. */
  public RolloutSettings(Duration settle, Boolean rollbackOnNack, List<WaveSettings> waves) {
    this(settle, rollbackOnNack, waves, null);
  }

  public static RolloutSettings defaults() {
    return new RolloutSettings(null, null, null, null);
  }
}
