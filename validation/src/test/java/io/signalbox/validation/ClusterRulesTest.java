package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LeastRequestSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RingHashSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterRulesTest {

  private static ClusterSpec cluster(
      LbPolicy policy, Duration connectTimeout, Duration slowStart, Integer maxEjectionPercent) {
    return new ClusterSpec("payments",
        new ClusterSpec.Balancing(policy, slowStart, null, null, null, null, null),
        new ClusterSpec.Connection(connectTimeout, null, null, null),
        new ClusterSpec.Ejection(maxEjectionPercent, null),
        null,
        null, null);
  }

  private static ClusterSpec with(
      OutlierDetectionSpec od, CircuitBreakersSpec cb, HealthCheckSpec hc, RingHashSpec ring, LeastRequestSpec lr, LbPolicy policy) {
    return new ClusterSpec("payments",
        new ClusterSpec.Balancing(policy, null, null, ring, lr, null, null),
        new ClusterSpec.Connection(null, cb, null, hc),
        new ClusterSpec.Ejection(null, od),
        null,
        null, null);
  }

  @Test
  void acceptsTheDesignExampleCluster() {
    assertThat(rendered(valid(cluster(LbPolicy.ROUND_ROBIN, Duration.ofSeconds(1), Duration.ofSeconds(30), 10)))).isEmpty();
  }

  @Test
  void rejectsConnectTimeoutOutOfRange() {
    assertThat(rendered(valid(cluster(null, Duration.ZERO, null, null))))
        .containsExactly("signalbox.yaml: cluster 'payments': connectTimeout: must be > 0s, was 0s [range]");
    assertThat(rendered(valid(cluster(null, Duration.ofMinutes(61), null, null))))
        .containsExactly("signalbox.yaml: cluster 'payments': connectTimeout: must be <= 1h, was 61m [range]");
  }

  @Test
  void rejectsSlowStartWithHashingPolicies() {
    assertThat(rendered(valid(cluster(LbPolicy.RING_HASH, null, Duration.ofSeconds(30), null))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': slowStart: slowStart is only supported with ROUND_ROBIN or LEAST_REQUEST, "
                + "lbPolicy is RING_HASH [lb-policy]");
  }

  @Test
  void allowsZeroSlowStartToOptOutOfADefault() {
    assertThat(rendered(valid(cluster(LbPolicy.RING_HASH, null, Duration.ZERO, null)))).isEmpty();
  }

  @Test
  void rejectsNegativeSlowStartAndEjectionPercentOutOfRange() {
    assertThat(rendered(valid(cluster(LbPolicy.LEAST_REQUEST, null, Duration.ofMillis(-500), 150))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': slowStart: must be >= 0s, was -500ms [range]",
            "signalbox.yaml: cluster 'payments': maxEjectionPercent: must be <= 100, was 150 [range]");
  }

  @Test
  void rejectsRingHashSettingsOnOtherPoliciesAndBadSizes() {
    assertThat(rendered(valid(with(null, null, null, new RingHashSpec(2048L, 1024L), null, LbPolicy.ROUND_ROBIN))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': ringHash: ringHash is only supported with RING_HASH, lbPolicy is ROUND_ROBIN [lb-policy]",
            "signalbox.yaml: cluster 'payments': ringHash.minimumRingSize: must be <= maximumRingSize (1024), was 2048 [range]");
    assertThat(rendered(valid(with(null, null, null, new RingHashSpec(0L, 8_388_609L), null, LbPolicy.RING_HASH))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': ringHash.minimumRingSize: must be >= 1, was 0 [range]",
            "signalbox.yaml: cluster 'payments': ringHash.maximumRingSize: must be <= 8388608, was 8388609 [range]");
  }

  @Test
  void rejectsLeastRequestSettingsOnOtherPoliciesAndTooFewChoices() {
    assertThat(rendered(valid(with(null, null, null, null, new LeastRequestSpec(1), LbPolicy.RING_HASH))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': leastRequest: leastRequest is only supported with LEAST_REQUEST, lbPolicy is RING_HASH [lb-policy]",
            "signalbox.yaml: cluster 'payments': leastRequest.choiceCount: must be >= 2, was 1 [range]");
  }

  @Test
  void rejectsOutlierDetectionOutOfRange() {
    OutlierDetectionSpec od = new OutlierDetectionSpec(0, Duration.ZERO, Duration.ofSeconds(-1), 101);

    assertThat(rendered(valid(with(od, null, null, null, null, null))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': outlierDetection.consecutive5xx: must be >= 1, was 0 [range]",
            "signalbox.yaml: cluster 'payments': outlierDetection.interval: must be > 0s, was 0s [range]",
            "signalbox.yaml: cluster 'payments': outlierDetection.baseEjectionTime: must be > 0s, was -1s [range]",
            "signalbox.yaml: cluster 'payments': outlierDetection.enforcingConsecutive5xx: must be <= 100, was 101 [range]");
  }

  @Test
  void rejectsNegativeCircuitBreakers() {
    assertThat(rendered(valid(with(null, new CircuitBreakersSpec(-1, 0, null, -2), null, null, null, null))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': circuitBreakers.maxConnections: must be >= 0, was -1 [range]",
            "signalbox.yaml: cluster 'payments': circuitBreakers.maxRetries: must be >= 0, was -2 [range]");
  }

  @Test
  void rejectsMalformedHealthCheck() {
    HealthCheckSpec hc = new HealthCheckSpec(Duration.ZERO, Duration.ofSeconds(-5), 0, 0, "healthz", true);

    assertThat(rendered(valid(with(null, null, hc, null, null, null))))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': healthCheck.timeout: must be > 0s, was 0s [range]",
            "signalbox.yaml: cluster 'payments': healthCheck.interval: must be > 0s, was -5s [range]",
            "signalbox.yaml: cluster 'payments': healthCheck.unhealthyThreshold: must be >= 1, was 0 [range]",
            "signalbox.yaml: cluster 'payments': healthCheck.healthyThreshold: must be >= 1, was 0 [range]",
            "signalbox.yaml: cluster 'payments': healthCheck: must not set both httpPath and grpc [health-check]",
            "signalbox.yaml: cluster 'payments': healthCheck.httpPath: must start with '/', was 'healthz' [health-check]");
  }

  @Test
  void rejectsGuardsOutOfRange() {
    ClusterSpec guards = ClusterSpec.named("payments").with(new ClusterSpec.Guards(-1, 0, Duration.ofSeconds(-1)));

    assertThat(rendered(valid(guards)))
        .containsExactly(
            "signalbox.yaml: cluster 'payments': drainTimeout: must be >= 0s, was -1s [range]",
            "signalbox.yaml: cluster 'payments': minEligible: must be >= 0, was -1 [range]",
            "signalbox.yaml: cluster 'payments': massRemovalPercent: must be >= 1, was 0 [range]");
  }
}
