package io.signalbox.model;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * A cluster as the operator declared it, its settings grouped by the policy they make. Null
 * settings are "not set": {@link #withDefaults} fills them from {@code clusterDefaults} group by
 * group, the {@code effective*} methods give Signalbox's own defaults (this record is their one
 * home), and the translator falls back to Envoy's defaults for the rest.
 *
 * <p>The groups are {@link Inline}: the config file keeps one flat mapping per cluster
 * ({@code lbPolicy}, {@code drainTimeout}, ... side by side, as docs/configuration.md shows), so a
 * group is a unit of code, never a key. A new setting is one component of the group it belongs to
 * plus one line of that group's {@code or}; a default for it is one constant and one
 * {@code effective*} method here.
 *
 * @param name null only for {@code clusterDefaults}
 */
public record ClusterSpec(
    String name,
    @Inline Balancing balancing,
    @Inline Connection connection,
    @Inline Ejection ejection,
    @Inline Guards guards,
    @Inline Locality locality,
    @Inline Telemetry telemetry,
    @Inline Admission admission) {

  public static final LbPolicy DEFAULT_LB_POLICY = LbPolicy.ROUND_ROBIN;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
  /** Envoy's own default, which operators' ejections are held to as outlier detection's are. */
  public static final int DEFAULT_MAX_EJECTION_PERCENT = 10;
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MIN_ELIGIBLE = 1;
  public static final int DEFAULT_MASS_REMOVAL_PERCENT = 50;

  public ClusterSpec {
    balancing = balancing == null ? Balancing.UNSET : balancing;
    connection = connection == null ? Connection.UNSET : connection;
    ejection = ejection == null ? Ejection.UNSET : ejection;
    guards = guards == null ? Guards.UNSET : guards;
    locality = locality == null ? Locality.UNSET : locality;
    telemetry = telemetry == null ? Telemetry.UNSET : telemetry;
    admission = admission == null ? Admission.UNSET : admission;
  }

  /** Without {@link Admission}: the shape before issue 31, kept so that code written against it compiles. */
  public ClusterSpec(String name, Balancing balancing, Connection connection, Ejection ejection, Guards guards,
      Locality locality, Telemetry telemetry) {
    this(name, balancing, connection, ejection, guards, locality, telemetry, null);
  }

  /**
   * How Envoy picks an endpoint within a locality.
   *
   * @param slowStart how long a new endpoint's share of traffic ramps up
   * @param panicThreshold percent of healthy endpoints below which Envoy balances over all; 0 disables
   * @param ringHash settings for {@link LbPolicy#RING_HASH}
   * @param leastRequest settings for {@link LbPolicy#LEAST_REQUEST}
   * @param maglev settings for {@link LbPolicy#MAGLEV}
   * @param weightedRoundRobin settings for {@link LbPolicy#WEIGHTED_ROUND_ROBIN}
   */
  public record Balancing(LbPolicy lbPolicy, Duration slowStart, Integer panicThreshold, RingHashSpec ringHash,
      LeastRequestSpec leastRequest, MaglevSpec maglev, WeightedRoundRobinSpec weightedRoundRobin) {
    public static final Balancing UNSET = new Balancing(null, null, null, null, null, null, null);

    public static Balancing of(LbPolicy lbPolicy) {
      return new Balancing(lbPolicy, null, null, null, null, null, null);
    }

    Balancing or(Balancing d) {
      return new Balancing(ClusterSpec.or(lbPolicy, d.lbPolicy), ClusterSpec.or(slowStart, d.slowStart),
          ClusterSpec.or(panicThreshold, d.panicThreshold), ClusterSpec.or(ringHash, d.ringHash),
          ClusterSpec.or(leastRequest, d.leastRequest), ClusterSpec.or(maglev, d.maglev),
          ClusterSpec.or(weightedRoundRobin, d.weightedRoundRobin));
    }
  }

  /**
   * How clients connect to the endpoints and how much they may ask of them.
   *
   * @param retryBudget Envoy's cap on concurrent retries to this cluster
   */
  public record Connection(Duration connectTimeout, CircuitBreakersSpec circuitBreakers, RetryBudgetSpec retryBudget,
      HealthCheckSpec healthCheck) {
    public static final Connection UNSET = new Connection(null, null, null, null);

    Connection or(Connection d) {
      return new Connection(ClusterSpec.or(connectTimeout, d.connectTimeout),
          ClusterSpec.or(circuitBreakers, d.circuitBreakers), ClusterSpec.or(retryBudget, d.retryBudget),
          ClusterSpec.or(healthCheck, d.healthCheck));
    }
  }

  /**
   * Taking misbehaving endpoints out of rotation.
   *
   * @param maxEjectionPercent cap on the share of endpoints outlier detection or operators may eject
   */
  public record Ejection(Integer maxEjectionPercent, OutlierDetectionSpec outlierDetection) {
    public static final Ejection UNSET = new Ejection(null, null);

    Ejection or(Ejection d) {
      return new Ejection(ClusterSpec.or(maxEjectionPercent, d.maxEjectionPercent),
          ClusterSpec.or(outlierDetection, d.outlierDetection));
    }
  }

  /**
   * What Signalbox itself holds back, whatever the sources say.
   *
   * @param minEligible the fewest eligible endpoints this cluster may be published with, once it had some
   * @param massRemovalPercent one update removing more than this share of endpoints is held
   * @param drainTimeout how long a drained endpoint stays DRAINING before it may be removed
   */
  public record Guards(Integer minEligible, Integer massRemovalPercent, Duration drainTimeout) {
    public static final Guards UNSET = new Guards(null, null, null);

    Guards or(Guards d) {
      return new Guards(ClusterSpec.or(minEligible, d.minEligible),
          ClusterSpec.or(massRemovalPercent, d.massRemovalPercent), ClusterSpec.or(drainTimeout, d.drainTimeout));
    }
  }

  /**
   * How traffic spreads over zones and priorities.
   *
   * @param localityLb how Envoy spreads traffic over zones within a priority
   * @param zoneAware settings for {@link LocalityLb#ZONE_AWARE}
   * @param overprovisioningFactor percent; a priority with fewer healthy endpoints than 100/factor of
   *     its size spills traffic to the next priority (Envoy's default 140)
   * @param zonePreference whether clients get their own zone's endpoints first ({@link ZonePreference})
   */
  public record Locality(LocalityLb localityLb, ZoneAwareSpec zoneAware, Integer overprovisioningFactor,
      ZonePreference zonePreference) {
    public static final Locality UNSET = new Locality(null, null, null, null);

    /** Without a zone preference: the shape before issue 44. */
    public Locality(LocalityLb localityLb, ZoneAwareSpec zoneAware, Integer overprovisioningFactor) {
      this(localityLb, zoneAware, overprovisioningFactor, null);
    }

    Locality or(Locality d) {
      return new Locality(ClusterSpec.or(localityLb, d.localityLb), ClusterSpec.or(zoneAware, d.zoneAware),
          ClusterSpec.or(overprovisioningFactor, d.overprovisioningFactor),
          ClusterSpec.or(zonePreference, d.zonePreference));
    }
  }

  /**
   * What the clients tell Signalbox about the traffic (docs/telemetry.md).
   *
   * @param loadReporting whether clients send this cluster's load reports (LRS) to Signalbox: its
   *     CDS carries {@code lrs_server: self}
   * @param loadReportingPerEndpoint whether every endpoint is sent in a locality of its own, so that
   *     clients reporting per locality (gRPC) report each endpoint's work apart: what lets a drain
   *     see that one endpoint's work has finished
   */
  public record Telemetry(Boolean loadReporting, Boolean loadReportingPerEndpoint) {
    public static final Telemetry UNSET = new Telemetry(null, null);

    Telemetry or(Telemetry d) {
      return new Telemetry(ClusterSpec.or(loadReporting, d.loadReporting),
          ClusterSpec.or(loadReportingPerEndpoint, d.loadReportingPerEndpoint));
    }
  }

  /**
   * How much the cluster's endpoints can serve and when Signalbox sheds calls to keep within it
   * (docs/admission-design.md). This group is the one home of admission's defaults.
   *
   * @param capacity the capacity of an endpoint of this cluster that declares none; a cluster
   *     with no capacity anywhere is never shed automatically
   * @param admission automatic shedding; null (not declared) means off
   */
  public record Admission(CapacitySpec capacity, AdmissionSpec admission) {
    public static final Admission UNSET = new Admission(null, null);
    /** Demand may use this share of eligible capacity before calls are dropped. */
    public static final double DEFAULT_MAX_UTILIZATION = 0.8;
    /** Percentage points the automatic drop may fall per window. */
    public static final int DEFAULT_STEP = 10;
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(30);

    Admission or(Admission d) {
      return new Admission(ClusterSpec.or(capacity, d.capacity), ClusterSpec.or(admission, d.admission));
    }

    /** The requests per second of an endpoint that declares no capacity of its own, if the cluster says. */
    public OptionalInt defaultCapacityRps() {
      return capacity == null || capacity.rps() == null ? OptionalInt.empty() : OptionalInt.of(capacity.rps());
    }

    /** Whether Signalbox sheds this cluster's calls automatically: only when {@code admission} is declared. */
    public boolean enabled() {
      return admission != null;
    }

    public double effectiveMaxUtilization() {
      return admission == null || admission.maxUtilization() == null
          ? DEFAULT_MAX_UTILIZATION : admission.maxUtilization();
    }

    /** In percentage points. */
    public int effectiveStep() {
      return admission == null || admission.step() == null ? DEFAULT_STEP : admission.step();
    }

    public Duration effectiveWindow() {
      return admission == null || admission.window() == null ? DEFAULT_WINDOW : admission.window();
    }
  }

  /** A cluster with only a name: what a source-discovered cluster starts from. */
  public static ClusterSpec named(String name) {
    return new ClusterSpec(name, null, null, null, null, null, null, null);
  }

  public ClusterSpec with(Balancing value) {
    return new ClusterSpec(name, value, connection, ejection, guards, locality, telemetry, admission);
  }

  public ClusterSpec with(Connection value) {
    return new ClusterSpec(name, balancing, value, ejection, guards, locality, telemetry, admission);
  }

  public ClusterSpec with(Ejection value) {
    return new ClusterSpec(name, balancing, connection, value, guards, locality, telemetry, admission);
  }

  public ClusterSpec with(Guards value) {
    return new ClusterSpec(name, balancing, connection, ejection, value, locality, telemetry, admission);
  }

  public ClusterSpec with(Locality value) {
    return new ClusterSpec(name, balancing, connection, ejection, guards, value, telemetry, admission);
  }

  public ClusterSpec with(Telemetry value) {
    return new ClusterSpec(name, balancing, connection, ejection, guards, locality, value, admission);
  }

  public ClusterSpec with(Admission value) {
    return new ClusterSpec(name, balancing, connection, ejection, guards, locality, telemetry, value);
  }

  /** This cluster with every unset setting taken from {@code defaults}, group by group. */
  public ClusterSpec withDefaults(ClusterSpec defaults) {
    if (defaults == null) {
      return this;
    }
    return new ClusterSpec(name, balancing.or(defaults.balancing), connection.or(defaults.connection),
        ejection.or(defaults.ejection), guards.or(defaults.guards), locality.or(defaults.locality),
        telemetry.or(defaults.telemetry), admission.or(defaults.admission));
  }

  /** Whether requests can carry affinity: the policies that hash a route's {@code hashPolicy}. */
  public boolean hashesRequests() {
    LbPolicy policy = effectiveLbPolicy();
    return policy == LbPolicy.RING_HASH || policy == LbPolicy.MAGLEV;
  }

  /** Where endpoints' ring keys come from: only a {@code RING_HASH} cluster sends any. */
  public HashKeySource effectiveHashKeySource() {
    RingHashSpec ring = balancing.ringHash();
    return effectiveLbPolicy() != LbPolicy.RING_HASH || ring == null || ring.hashKeySource() == null
        ? HashKeySource.ADDRESS : ring.hashKeySource();
  }

  public LbPolicy effectiveLbPolicy() {
    return or(balancing.lbPolicy(), DEFAULT_LB_POLICY);
  }

  public Duration effectiveConnectTimeout() {
    return or(connection.connectTimeout(), DEFAULT_CONNECT_TIMEOUT);
  }

  public int effectiveMaxEjectionPercent() {
    return or(ejection.maxEjectionPercent(), DEFAULT_MAX_EJECTION_PERCENT);
  }

  public Duration effectiveDrainTimeout() {
    return or(guards.drainTimeout(), DEFAULT_DRAIN_TIMEOUT);
  }

  public int effectiveMinEligible() {
    return or(guards.minEligible(), DEFAULT_MIN_ELIGIBLE);
  }

  /** Whether clients report this cluster's load; off unless the cluster or its defaults say so. */
  public boolean reportsLoad() {
    return Boolean.TRUE.equals(telemetry.loadReporting());
  }

  /** Whether every endpoint gets a locality of its own in EDS; off unless the cluster or its defaults say so. */
  public boolean localityPerEndpoint() {
    return Boolean.TRUE.equals(telemetry.loadReportingPerEndpoint());
  }

  public ZonePreference effectiveZonePreference() {
    return or(locality.zonePreference(), ZonePreference.NONE);
  }

  public int effectiveMassRemovalPercent() {
    return or(guards.massRemovalPercent(), DEFAULT_MASS_REMOVAL_PERCENT);
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
