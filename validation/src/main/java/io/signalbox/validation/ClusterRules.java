package io.signalbox.validation;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RingHashSpec;
import java.time.Duration;
import java.util.List;

/** Declared clusters: names, timeouts, load-balancer settings, outlier detection, guards, admission. */
final class ClusterRules {

  /** Envoy's own bound for ring sizes (8M entries); more only burns memory on every client. */
  static final long MAX_RING_SIZE = 8_388_608L;

  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofHours(1);

  private ClusterRules() {}

  static void check(DesiredState state, Findings f) {
    String src = state.configSource();
    List<ClusterSpec> clusters = state.clusters();
    f.uniqueNames(src, "cluster", "clusters", clusters.stream().map(c -> c == null ? null : c.name()).toList());
    for (int i = 0; i < clusters.size(); i++) {
      ClusterSpec cluster = clusters.get(i);
      if (cluster == null) {
        f.error(Findings.REQUIRED, src, "clusters[" + i + "]", "must not be null");
        continue;
      }
      String label = Labels.of("cluster", "clusters", cluster.name(), i);
      if (f.name(src, Labels.field(label, "name"), cluster.name())
          && state.endpointsOf(cluster.name()).isEmpty()) {
        // A source may simply not have reported yet; the translator publishes it empty.
        f.warning("endpoints.missing", src, label, "has no endpoints");
      }
      checkCluster(src, label, cluster, f);
    }
  }

  private static void checkCluster(String src, String label, ClusterSpec c, Findings f) {
    Duration connect = c.connection().connectTimeout();
    f.positive(src, Labels.field(label, "connectTimeout"), connect);
    if (connect != null && connect.compareTo(MAX_CONNECT_TIMEOUT) > 0) {
      f.error(Findings.RANGE, src, Labels.field(label, "connectTimeout"), "must be <= 1h, was " + Findings.format(connect));
    }
    LbPolicy policy = c.effectiveLbPolicy();
    f.nonNegative(src, Labels.field(label, "slowStart"), c.balancing().slowStart());
    // slowStart: 0s is how a cluster opts out of a slow-start default it cannot use.
    if (c.balancing().slowStart() != null
        && c.balancing().slowStart().compareTo(Duration.ZERO) > 0
        && policy != LbPolicy.ROUND_ROBIN
        && policy != LbPolicy.LEAST_REQUEST) {
      f.error(
          "lb-policy",
          src,
          Labels.field(label, "slowStart"),
          "slowStart is only supported with ROUND_ROBIN or LEAST_REQUEST, lbPolicy is " + policy);
    }
    RingHashSpec ring = c.balancing().ringHash();
    if (ring != null) {
      if (policy != LbPolicy.RING_HASH) {
        f.error("lb-policy", src, Labels.field(label, "ringHash"), "ringHash is only supported with RING_HASH, lbPolicy is " + policy);
      }
      f.range(src, Labels.field(label, "ringHash.minimumRingSize"), ring.minimumRingSize(), 1, MAX_RING_SIZE);
      f.range(src, Labels.field(label, "ringHash.maximumRingSize"), ring.maximumRingSize(), 1, MAX_RING_SIZE);
      if (ring.minimumRingSize() != null
          && ring.maximumRingSize() != null
          && ring.minimumRingSize() > ring.maximumRingSize()) {
        f.error(
            Findings.RANGE,
            src,
            Labels.field(label, "ringHash.minimumRingSize"),
            "must be <= maximumRingSize (" + ring.maximumRingSize() + "), was " + ring.minimumRingSize());
      }
    }
    if (c.balancing().leastRequest() != null) {
      if (policy != LbPolicy.LEAST_REQUEST) {
        f.error(
            "lb-policy",
            src,
            Labels.field(label, "leastRequest"),
            "leastRequest is only supported with LEAST_REQUEST, lbPolicy is " + policy);
      }
      f.range(src, Labels.field(label, "leastRequest.choiceCount"), c.balancing().leastRequest().choiceCount(), 2,
          Integer.MAX_VALUE);
    }
    f.range(src, Labels.field(label, "maxEjectionPercent"), c.ejection().maxEjectionPercent(), 0, 100);
    checkOutlierDetection(src, label, c.ejection().outlierDetection(), f);
    checkCircuitBreakers(src, label, c.connection().circuitBreakers(), f);
    checkHealthCheck(src, label, c.connection().healthCheck(), f);
    f.nonNegative(src, Labels.field(label, "drainTimeout"), c.guards().drainTimeout());
    f.range(src, Labels.field(label, "minEligible"), c.guards().minEligible(), 0, Integer.MAX_VALUE);
    f.range(src, Labels.field(label, "massRemovalPercent"), c.guards().massRemovalPercent(), 1, 100);
    ClusterPolicyRules.check(src, label, c, f);
    AdmissionRules.checkCluster(src, label, c, f);
  }

  private static void checkOutlierDetection(String src, String label, OutlierDetectionSpec od, Findings f) {
    if (od == null) {
      return;
    }
    f.range(src, Labels.field(label, "outlierDetection.consecutive5xx"), od.consecutive5xx(), 1, Integer.MAX_VALUE);
    f.positive(src, Labels.field(label, "outlierDetection.interval"), od.interval());
    f.positive(src, Labels.field(label, "outlierDetection.baseEjectionTime"), od.baseEjectionTime());
    f.range(src, Labels.field(label, "outlierDetection.enforcingConsecutive5xx"), od.enforcingConsecutive5xx(), 0, 100);
  }

  private static void checkCircuitBreakers(String src, String label, CircuitBreakersSpec cb, Findings f) {
    if (cb == null) {
      return;
    }
    f.range(src, Labels.field(label, "circuitBreakers.maxConnections"), cb.maxConnections(), 0, Integer.MAX_VALUE);
    f.range(src, Labels.field(label, "circuitBreakers.maxPendingRequests"), cb.maxPendingRequests(), 0, Integer.MAX_VALUE);
    f.range(src, Labels.field(label, "circuitBreakers.maxRequests"), cb.maxRequests(), 0, Integer.MAX_VALUE);
    f.range(src, Labels.field(label, "circuitBreakers.maxRetries"), cb.maxRetries(), 0, Integer.MAX_VALUE);
  }

  private static void checkHealthCheck(String src, String label, HealthCheckSpec hc, Findings f) {
    if (hc == null) {
      return;
    }
    f.positive(src, Labels.field(label, "healthCheck.timeout"), hc.timeout());
    f.positive(src, Labels.field(label, "healthCheck.interval"), hc.interval());
    f.range(src, Labels.field(label, "healthCheck.unhealthyThreshold"), hc.unhealthyThreshold(), 1, Integer.MAX_VALUE);
    f.range(src, Labels.field(label, "healthCheck.healthyThreshold"), hc.healthyThreshold(), 1, Integer.MAX_VALUE);
    if (hc.httpPath() != null && Boolean.TRUE.equals(hc.grpc())) {
      f.error("health-check", src, Labels.field(label, "healthCheck"), "must not set both httpPath and grpc");
    }
    if (hc.httpPath() != null && !hc.httpPath().startsWith("/")) {
      f.error(
          "health-check", src, Labels.field(label, "healthCheck.httpPath"), "must start with '/', was " + Findings.quote(hc.httpPath()));
    }
  }
}
