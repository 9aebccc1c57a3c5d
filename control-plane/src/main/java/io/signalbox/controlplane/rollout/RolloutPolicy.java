package io.signalbox.controlplane.rollout;

import io.signalbox.controlplane.xds.Waves;
import java.time.Duration;

/**
 * How epochs roll out and when they roll back.
 *
 * @param settle how long a fully-ACKed epoch must stay NACK-free before it is SAFE
 * @param rollbackOnNack roll back automatically when any client NACKs the newest epoch
 */
public record RolloutPolicy(Waves waves, Duration settle, boolean rollbackOnNack) {
  public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);

  public static RolloutPolicy defaults() {
    return new RolloutPolicy(Waves.NONE, DEFAULT_SETTLE, true);
  }
}
