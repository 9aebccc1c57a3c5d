package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.Set;

/**
 * A cluster's traffic policy: retry budget, panic threshold, locality and priority failover,
 * Maglev and client-side weighted round robin settings (DESIGN "Traffic policy").
 */
final class ClusterPolicyRules {

  /** Envoy's bound on a Maglev table ({@code MaglevLbConfig.table_size}, lte 5000011). */
  static final long MAX_MAGLEV_TABLE_SIZE = 5_000_011L;

  /**
   * Envoy's zone-aware routing lives in its ZoneAwareLoadBalancerBase, which only these policies
   * extend; the hashing policies and the client-side weighted one have no zone-aware mode.
   */
  private static final Set<LbPolicy> ZONE_AWARE_POLICIES =
      EnumSet.of(LbPolicy.ROUND_ROBIN, LbPolicy.LEAST_REQUEST, LbPolicy.RANDOM);

  private ClusterPolicyRules() {}

  static void check(String src, String label, ClusterSpec c, Findings f) {
    LbPolicy policy = c.effectiveLbPolicy();
    RetryBudgetSpec budget = c.connection().retryBudget();
    if (budget != null) {
      f.range(src, Labels.field(label, "retryBudget.budgetPercent"), budget.budgetPercent(), 0, 100);
      f.range(src, Labels.field(label, "retryBudget.minRetryConcurrency"), budget.minRetryConcurrency(), 0,
          Integer.MAX_VALUE);
      if (c.connection().circuitBreakers() != null && c.connection().circuitBreakers().maxRetries() != null) {
        f.warning("circuit-breakers", src, Labels.field(label, "circuitBreakers.maxRetries"),
            "is ignored by Envoy while retryBudget is set");
      }
    }
    f.range(src, Labels.field(label, "panicThreshold"), c.balancing().panicThreshold(), 0, 100);
    // Below 100 a priority with every endpoint healthy still hands part of its traffic to the next.
    f.range(src, Labels.field(label, "overprovisioningFactor"), c.locality().overprovisioningFactor(), 100,
        Integer.MAX_VALUE);
    checkLocality(src, label, c, policy, f);
    MaglevSpec maglev = c.balancing().maglev();
    if (maglev != null) {
      if (policy != LbPolicy.MAGLEV) {
        f.error("lb-policy", src, Labels.field(label, "maglev"), "maglev is only supported with MAGLEV, lbPolicy is " + policy);
      }
      Long size = maglev.tableSize();
      f.range(src, Labels.field(label, "maglev.tableSize"), size, 1, MAX_MAGLEV_TABLE_SIZE);
      if (size != null && size >= 1 && size <= MAX_MAGLEV_TABLE_SIZE && !BigInteger.valueOf(size).isProbablePrime(40)) {
        // Envoy refuses a non-prime table: Maglev's permutations only cover the table when it is prime.
        f.error(Findings.RANGE, src, Labels.field(label, "maglev.tableSize"), "must be a prime number, was " + size);
      }
    }
    WeightedRoundRobinSpec wrr = c.balancing().weightedRoundRobin();
    if (wrr != null) {
      if (policy != LbPolicy.WEIGHTED_ROUND_ROBIN) {
        f.error("lb-policy", src, Labels.field(label, "weightedRoundRobin"),
            "weightedRoundRobin is only supported with WEIGHTED_ROUND_ROBIN, lbPolicy is " + policy);
      }
      f.nonNegative(src, Labels.field(label, "weightedRoundRobin.blackoutPeriod"), wrr.blackoutPeriod());
      f.positive(src, Labels.field(label, "weightedRoundRobin.weightExpirationPeriod"), wrr.weightExpirationPeriod());
      f.positive(src, Labels.field(label, "weightedRoundRobin.weightUpdatePeriod"), wrr.weightUpdatePeriod());
      f.positive(src, Labels.field(label, "weightedRoundRobin.oobReportingPeriod"), wrr.oobReportingPeriod());
      Double penalty = wrr.errorUtilizationPenalty();
      if (penalty != null && !(penalty >= 0 && Double.isFinite(penalty))) {
        f.error(Findings.RANGE, src, Labels.field(label, "weightedRoundRobin.errorUtilizationPenalty"),
            "must be >= 0, was " + penalty);
      }
    }
  }

  private static void checkLocality(String src, String label, ClusterSpec c, LbPolicy policy, Findings f) {
    LocalityLb locality = c.locality().localityLb();
    if (locality == LocalityLb.ZONE_AWARE && !ZONE_AWARE_POLICIES.contains(policy)) {
      f.error("lb-policy", src, Labels.field(label, "localityLb"),
          "ZONE_AWARE is only supported with ROUND_ROBIN, LEAST_REQUEST or RANDOM, lbPolicy is " + policy);
    }
    if (locality == LocalityLb.LOCALITY_WEIGHTED && policy == LbPolicy.WEIGHTED_ROUND_ROBIN) {
      // Its typed config has no locality setting: it weighs endpoints by their load reports.
      f.error("lb-policy", src, Labels.field(label, "localityLb"),
          "LOCALITY_WEIGHTED is not supported with WEIGHTED_ROUND_ROBIN, which weighs endpoints by their load reports");
    }
    if (c.localityPerEndpoint()) {
      if (locality == LocalityLb.ZONE_AWARE) {
        // Envoy finds its own zone's locality by equality of (region, zone, sub-zone): with a
        // sub-zone per endpoint none equals it, and zone-aware routing silently turns off.
        f.error("lb-policy", src, Labels.field(label, "loadReportingPerEndpoint"),
            "loadReportingPerEndpoint gives every endpoint a locality of its own, which turns Envoy's ZONE_AWARE "
                + "routing off; Envoy reports per endpoint without it (report_endpoint_granularity)");
      }
      if (!c.reportsLoad()) {
        f.warning("load-reporting", src, Labels.field(label, "loadReportingPerEndpoint"),
            "has no effect on drains without loadReporting: true");
      }
    }
    ZoneAwareSpec zoneAware = c.locality().zoneAware();
    if (zoneAware != null) {
      if (locality != LocalityLb.ZONE_AWARE) {
        f.error("lb-policy", src, Labels.field(label, "zoneAware"),
            "zoneAware is only supported with localityLb ZONE_AWARE, localityLb is " + (locality == null ? "not set" : locality));
      }
      f.range(src, Labels.field(label, "zoneAware.minClusterSize"), zoneAware.minClusterSize(), 1, Long.MAX_VALUE);
      f.range(src, Labels.field(label, "zoneAware.routingPercent"), zoneAware.routingPercent(), 0, 100);
    }
  }
}
