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
 * @param retryBudget Envoy's cap on concurrent retries to this cluster
 * @param panicThreshold percent of healthy endpoints below which Envoy balances over all; 0 disables
 * @param localityLb how Envoy spreads traffic over zones within a priority
 * @param zoneAware settings for {@link LocalityLb#ZONE_AWARE}
 * @param overprovisioningFactor percent; a priority with fewer healthy endpoints than 100/factor of
 *     its size spills traffic to the next priority (Envoy's default 140)
 * @param maglev settings for {@link LbPolicy#MAGLEV}
 * @param weightedRoundRobin settings for {@link LbPolicy#WEIGHTED_ROUND_ROBIN}
 * @param loadReporting whether clients send this cluster's load reports (LRS) to Signalbox: its CDS
 *     carries {@code lrs_server: self}
 * @param loadReportingPerEndpoint whether every endpoint is sent in a locality of its own, so that
 *     clients reporting per locality (gRPC) report each endpoint's work apart: what lets a drain
 *     see that one endpoint's work has finished
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
    Integer massRemovalPercent,
    RetryBudgetSpec retryBudget,
    Integer panicThreshold,
    LocalityLb localityLb,
    ZoneAwareSpec zoneAware,
    Integer overprovisioningFactor,
    MaglevSpec maglev,
    WeightedRoundRobinSpec weightedRoundRobin,
    Boolean loadReporting,
    Boolean loadReportingPerEndpoint) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MIN_ELIGIBLE = 1;
  public static final int DEFAULT_MASS_REMOVAL_PERCENT = 50;

  /** A cluster without load reporting: every spec written before {@code loadReporting} existed. */
  public ClusterSpec(
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
      Integer massRemovalPercent,
      RetryBudgetSpec retryBudget,
      Integer panicThreshold,
      LocalityLb localityLb,
      ZoneAwareSpec zoneAware,
      Integer overprovisioningFactor,
      MaglevSpec maglev,
      WeightedRoundRobinSpec weightedRoundRobin) {
    this(name, lbPolicy, connectTimeout, slowStart, maxEjectionPercent, outlierDetection, circuitBreakers,
        healthCheck, ringHash, leastRequest, drainTimeout, minEligible, massRemovalPercent, retryBudget,
        panicThreshold, localityLb, zoneAware, overprovisioningFactor, maglev, weightedRoundRobin, null, null);
  }

  /** A cluster without traffic policy (retry budget, panic threshold, locality, failover, WRR). */
  public ClusterSpec(
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
    this(name, lbPolicy, connectTimeout, slowStart, maxEjectionPercent, outlierDetection, circuitBreakers,
        healthCheck, ringHash, leastRequest, drainTimeout, minEligible, massRemovalPercent,
        null, null, null, null, null, null, null);
  }

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
        or(massRemovalPercent, defaults.massRemovalPercent),
        or(retryBudget, defaults.retryBudget),
        or(panicThreshold, defaults.panicThreshold),
        or(localityLb, defaults.localityLb),
        or(zoneAware, defaults.zoneAware),
        or(overprovisioningFactor, defaults.overprovisioningFactor),
        or(maglev, defaults.maglev),
        or(weightedRoundRobin, defaults.weightedRoundRobin),
        or(loadReporting, defaults.loadReporting),
        or(loadReportingPerEndpoint, defaults.loadReportingPerEndpoint));
  }

  /** Whether requests can carry affinity: the policies that hash a route's {@code hashPolicy}. */
  public boolean hashesRequests() {
    LbPolicy policy = effectiveLbPolicy();
    return policy == LbPolicy.RING_HASH || policy == LbPolicy.MAGLEV;
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

  /** Whether clients report this cluster's load; off unless the cluster or its defaults say so. */
  public boolean reportsLoad() {
    return Boolean.TRUE.equals(loadReporting);
  }

  /** Whether every endpoint gets a locality of its own in EDS; off unless the cluster or its defaults say so. */
  public boolean localityPerEndpoint() {
    return Boolean.TRUE.equals(loadReportingPerEndpoint);
  }

  public int effectiveMassRemovalPercent() {
    return massRemovalPercent == null ? DEFAULT_MASS_REMOVAL_PERCENT : massRemovalPercent;
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
