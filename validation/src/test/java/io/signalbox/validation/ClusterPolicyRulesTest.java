package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterPolicyRulesTest {

  private static final String CLUSTER = "signalbox.yaml: cluster 'payments': ";

  /** A cluster with only traffic policy set (and a circuit breaker, for the retry budget's sake). */
  private static ClusterSpec cluster(LbPolicy policy, CircuitBreakersSpec breakers, RetryBudgetSpec budget,
      Integer panicThreshold, LocalityLb locality, ZoneAwareSpec zoneAware, Integer overprovisioning,
      MaglevSpec maglev, WeightedRoundRobinSpec wrr) {
    return new ClusterSpec("payments",
        new ClusterSpec.Balancing(policy, null, panicThreshold, null, null, maglev, wrr),
        new ClusterSpec.Connection(null, breakers, budget, null),
        null,
        null,
        new ClusterSpec.Locality(locality, zoneAware, overprovisioning), null);
  }

  /** The socket listener keeps grpc-xds warnings (MAGLEV) out of these tests. */
  private static java.util.List<String> check(ClusterSpec c) {
    var state = valid(c);
    return rendered(new io.signalbox.model.DesiredState(state.configSource(),
        java.util.List.of(socketListener("web", "0.0.0.0", 10000, "greeter")), state.routeConfigs(), state.clusters(),
        state.endpoints()));
  }

  @Test
  void acceptsTheDesignExample() {
    assertThat(check(cluster(LbPolicy.RING_HASH, null, new RetryBudgetSpec(20, 3), 50, LocalityLb.LOCALITY_WEIGHTED,
        null, 140, null, null))).isEmpty();
    assertThat(check(cluster(LbPolicy.ROUND_ROBIN, null, null, 0, LocalityLb.ZONE_AWARE, new ZoneAwareSpec(6L, 100),
        100, null, null))).isEmpty();
    assertThat(check(cluster(LbPolicy.MAGLEV, null, null, null, null, null, null, new MaglevSpec(65537L), null))).isEmpty();
    assertThat(check(cluster(LbPolicy.WEIGHTED_ROUND_ROBIN, null, null, null, null, null, null, null,
        new WeightedRoundRobinSpec(Duration.ZERO, Duration.ofMinutes(3), Duration.ofMillis(100), 1.0, true,
            Duration.ofSeconds(1))))).isEmpty();
  }

  @Test
  void boundsTheRetryBudgetAndWarnsThatItReplacesMaxRetries() {
    assertThat(check(cluster(null, new CircuitBreakersSpec(null, null, null, 3), new RetryBudgetSpec(101, -1),
        null, null, null, null, null, null)))
        .containsExactly(
            CLUSTER + "retryBudget.budgetPercent: must be <= 100, was 101 [range]",
            CLUSTER + "retryBudget.minRetryConcurrency: must be >= 0, was -1 [range]",
            CLUSTER + "circuitBreakers.maxRetries: is ignored by Envoy while retryBudget is set [circuit-breakers] (warning)");
  }

  @Test
  void boundsPanicThresholdAndOverprovisioningFactor() {
    assertThat(check(cluster(null, null, null, 101, null, null, 99, null, null)))
        .containsExactly(
            CLUSTER + "panicThreshold: must be <= 100, was 101 [range]",
            CLUSTER + "overprovisioningFactor: must be >= 100, was 99 [range]");
    assertThat(check(cluster(null, null, null, -1, null, null, null, null, null)))
        .containsExactly(CLUSTER + "panicThreshold: must be >= 0, was -1 [range]");
  }

  @Test
  void zoneAwareNeedsAZoneAwarePolicyAndItsSettingsNeedIt() {
    assertThat(check(cluster(LbPolicy.RING_HASH, null, null, null, LocalityLb.ZONE_AWARE, new ZoneAwareSpec(0L, 101),
        null, null, null)))
        .containsExactly(
            CLUSTER + "localityLb: ZONE_AWARE is only supported with ROUND_ROBIN, LEAST_REQUEST or RANDOM, lbPolicy is RING_HASH [lb-policy]",
            CLUSTER + "zoneAware.minClusterSize: must be >= 1, was 0 [range]",
            CLUSTER + "zoneAware.routingPercent: must be <= 100, was 101 [range]");
    assertThat(check(cluster(null, null, null, null, LocalityLb.LOCALITY_WEIGHTED, new ZoneAwareSpec(6L, null),
        null, null, null)))
        .containsExactly(CLUSTER + "zoneAware: zoneAware is only supported with localityLb ZONE_AWARE, localityLb is LOCALITY_WEIGHTED [lb-policy]");
    assertThat(check(cluster(null, null, null, null, null, new ZoneAwareSpec(6L, null), null, null, null)))
        .containsExactly(CLUSTER + "zoneAware: zoneAware is only supported with localityLb ZONE_AWARE, localityLb is not set [lb-policy]");
  }

  private static ClusterSpec perEndpoint(LocalityLb locality, Boolean loadReporting) {
    return ClusterSpec.named("payments").with(ClusterSpec.Balancing.of(LbPolicy.ROUND_ROBIN))
        .with(new ClusterSpec.Locality(locality, null, null)).with(new ClusterSpec.Telemetry(loadReporting, true));
  }

  @Test
  void perEndpointLocalitiesRefuseZoneAwareRoutingAndWantLoadReporting() {
    assertThat(check(perEndpoint(LocalityLb.LOCALITY_WEIGHTED, true))).isEmpty();
    assertThat(check(perEndpoint(LocalityLb.ZONE_AWARE, true))).containsExactly(CLUSTER + "loadReportingPerEndpoint: "
        + "loadReportingPerEndpoint gives every endpoint a locality of its own, which turns Envoy's ZONE_AWARE routing "
        + "off; Envoy reports per endpoint without it (report_endpoint_granularity) [lb-policy]");
    assertThat(check(perEndpoint(null, null))).containsExactly(CLUSTER + "loadReportingPerEndpoint: "
        + "has no effect on drains without loadReporting: true [load-reporting] (warning)");
  }

  @Test
  void rejectsLocalityWeightingWithWeightedRoundRobin() {
    assertThat(check(cluster(LbPolicy.WEIGHTED_ROUND_ROBIN, null, null, null, LocalityLb.LOCALITY_WEIGHTED, null,
        null, null, null)))
        .containsExactly(CLUSTER + "localityLb: LOCALITY_WEIGHTED is not supported with WEIGHTED_ROUND_ROBIN, which weighs "
            + "endpoints by their load reports [lb-policy]");
  }

  @Test
  void maglevTableMustBePrimeAndWithinEnvoysBound() {
    assertThat(check(cluster(LbPolicy.MAGLEV, null, null, null, null, null, null, new MaglevSpec(65536L), null)))
        .containsExactly(CLUSTER + "maglev.tableSize: must be a prime number, was 65536 [range]");
    assertThat(check(cluster(LbPolicy.MAGLEV, null, null, null, null, null, null, new MaglevSpec(5_000_012L), null)))
        .containsExactly(CLUSTER + "maglev.tableSize: must be <= 5000011, was 5000012 [range]");
    assertThat(check(cluster(LbPolicy.RING_HASH, null, null, null, null, null, null, new MaglevSpec(5_000_011L), null)))
        .containsExactly(CLUSTER + "maglev: maglev is only supported with MAGLEV, lbPolicy is RING_HASH [lb-policy]");
  }

  @Test
  void weightedRoundRobinSettingsNeedTheirPolicyAndSaneValues() {
    assertThat(check(cluster(LbPolicy.ROUND_ROBIN, null, null, null, null, null, null, null,
        new WeightedRoundRobinSpec(Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO, -0.5, null, Duration.ZERO))))
        .containsExactly(
            CLUSTER + "weightedRoundRobin: weightedRoundRobin is only supported with WEIGHTED_ROUND_ROBIN, lbPolicy is ROUND_ROBIN [lb-policy]",
            CLUSTER + "weightedRoundRobin.blackoutPeriod: must be >= 0s, was -1s [range]",
            CLUSTER + "weightedRoundRobin.weightExpirationPeriod: must be > 0s, was 0s [range]",
            CLUSTER + "weightedRoundRobin.weightUpdatePeriod: must be > 0s, was 0s [range]",
            CLUSTER + "weightedRoundRobin.oobReportingPeriod: must be > 0s, was 0s [range]",
            CLUSTER + "weightedRoundRobin.errorUtilizationPenalty: must be >= 0, was -0.5 [range]");
  }

  @Test
  void slowStartIsRefusedWithWeightedRoundRobin() {
    ClusterSpec c = ClusterSpec.named("payments")
        .with(new ClusterSpec.Balancing(LbPolicy.WEIGHTED_ROUND_ROBIN, Duration.ofSeconds(30), null, null, null, null, null));
    assertThat(check(c)).containsExactly(CLUSTER + "slowStart: slowStart is only supported with ROUND_ROBIN or "
        + "LEAST_REQUEST, lbPolicy is WEIGHTED_ROUND_ROBIN [lb-policy]");
  }
}
