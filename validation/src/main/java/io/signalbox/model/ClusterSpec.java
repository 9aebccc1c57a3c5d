package io.signalbox.model;

import java.time.Duration;

/**
 * A cluster as the operator declared it. Null components are "not set": {@link #withDefaults}
 * fills them from {@code clusterDefaults}, and the translator falls back to Envoy's defaults.
 *
 * @param maxEjectionPercent cap on the share of endpoints outlier detection or operators may eject
 * @param drainTimeout how long a drained endpoint stays DRAINING before it may be removed
 * @param minEligible the fewest eligible endpoints this cluster may be published with, once it had some
 * @param massRemovalPercent one update removing more than this share of endpoints is held
 */
public record ClusterSpec(
    String name,
    LbPolicy lbPolicy,
    Duration connectTimeout,
    Duration slowStart,
    Integer maxEjectionPercent,
    OutlierDetectionSpec outlierDetection,
    CircuitBreakersSpec circuitBreakers,
    HealthCheckSpec healthCheck,
    RingHashSpec ringHash,
    LeastRequestSpec leastRequest,
    Duration drainTimeout,
    Integer minEligible,
    Integer massRemovalPercent) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MIN_ELIGIBLE = 1;
  public static final int DEFAULT_MASS_REMOVAL_PERCENT = 50;

  /** A cluster with only a name: what a source-discovered cluster starts from. */
  public static ClusterSpec named(String name) {
    return new ClusterSpec(name, null, null, null, null, null, null, null, null, null, null, null, null);
  }

  /** This cluster with every unset component taken from {@code defaults}. */
  public ClusterSpec withDefaults(ClusterSpec defaults) {
    if (defaults == null) {
      return this;
    }
    return new ClusterSpec(
        name,
        or(lbPolicy, defaults.lbPolicy),
        or(connectTimeout, defaults.connectTimeout),
        or(slowStart, defaults.slowStart),
        or(maxEjectionPercent, defaults.maxEjectionPercent),
        or(outlierDetection, defaults.outlierDetection),
        or(circuitBreakers, defaults.circuitBreakers),
        or(healthCheck, defaults.healthCheck),
        or(ringHash, defaults.ringHash),
        or(leastRequest, defaults.leastRequest),
        or(drainTimeout, defaults.drainTimeout),
        or(minEligible, defaults.minEligible),
        or(massRemovalPercent, defaults.massRemovalPercent));
  }

  public LbPolicy effectiveLbPolicy() {
    return lbPolicy == null ? LbPolicy.ROUND_ROBIN : lbPolicy;
  }

  public Duration effectiveConnectTimeout() {
    return connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
  }

  public Duration effectiveDrainTimeout() {
    return drainTimeout == null ? DEFAULT_DRAIN_TIMEOUT : drainTimeout;
  }

  public int effectiveMinEligible() {
    return minEligible == null ? DEFAULT_MIN_ELIGIBLE : minEligible;
  }

  public int effectiveMassRemovalPercent() {
    return massRemovalPercent == null ? DEFAULT_MASS_REMOVAL_PERCENT : massRemovalPercent;
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
