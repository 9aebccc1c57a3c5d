package io.signalbox.controlplane.translate;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LeastRequestSpec;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.RingHashSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import java.time.Duration;

/** Test-only: a {@link ClusterSpec} with just the parts a test cares about. */
final class ClusterSpecBuilder {
  private final String name;
  private LbPolicy lbPolicy;
  private Duration connectTimeout;
  private Duration slowStart;
  private Integer maxEjectionPercent;
  private OutlierDetectionSpec outlierDetection;
  private CircuitBreakersSpec circuitBreakers;
  private HealthCheckSpec healthCheck;
  private RingHashSpec ringHash;
  private LeastRequestSpec leastRequest;
  private RetryBudgetSpec retryBudget;
  private Integer panicThreshold;
  private LocalityLb localityLb;
  private ZoneAwareSpec zoneAware;
  private Integer overprovisioningFactor;
  private MaglevSpec maglev;
  private WeightedRoundRobinSpec weightedRoundRobin;

  private ClusterSpecBuilder(String name) {
    this.name = name;
  }

  static ClusterSpecBuilder cluster(String name) {
    return new ClusterSpecBuilder(name);
  }

  ClusterSpecBuilder lbPolicy(LbPolicy value) {
    lbPolicy = value;
    return this;
  }

  ClusterSpecBuilder connectTimeout(Duration value) {
    connectTimeout = value;
    return this;
  }

  ClusterSpecBuilder slowStart(Duration value) {
    slowStart = value;
    return this;
  }

  ClusterSpecBuilder maxEjectionPercent(Integer value) {
    maxEjectionPercent = value;
    return this;
  }

  ClusterSpecBuilder outlierDetection(OutlierDetectionSpec value) {
    outlierDetection = value;
    return this;
  }

  ClusterSpecBuilder circuitBreakers(CircuitBreakersSpec value) {
    circuitBreakers = value;
    return this;
  }

  ClusterSpecBuilder healthCheck(HealthCheckSpec value) {
    healthCheck = value;
    return this;
  }

  ClusterSpecBuilder ringHash(RingHashSpec value) {
    ringHash = value;
    return this;
  }

  ClusterSpecBuilder leastRequest(LeastRequestSpec value) {
    leastRequest = value;
    return this;
  }

  ClusterSpecBuilder retryBudget(RetryBudgetSpec value) {
    retryBudget = value;
    return this;
  }

  ClusterSpecBuilder panicThreshold(Integer value) {
    panicThreshold = value;
    return this;
  }

  ClusterSpecBuilder localityLb(LocalityLb value, ZoneAwareSpec settings) {
    localityLb = value;
    zoneAware = settings;
    return this;
  }

  ClusterSpecBuilder overprovisioningFactor(Integer value) {
    overprovisioningFactor = value;
    return this;
  }

  ClusterSpecBuilder maglev(MaglevSpec value) {
    maglev = value;
    return this;
  }

  ClusterSpecBuilder weightedRoundRobin(WeightedRoundRobinSpec value) {
    weightedRoundRobin = value;
    return this;
  }

  ClusterSpec build() {
    return new ClusterSpec(name,
        new ClusterSpec.Balancing(lbPolicy, slowStart, panicThreshold, ringHash, leastRequest, maglev, weightedRoundRobin),
        new ClusterSpec.Connection(connectTimeout, circuitBreakers, retryBudget, healthCheck),
        new ClusterSpec.Ejection(maxEjectionPercent, outlierDetection),
        null,
        new ClusterSpec.Locality(localityLb, zoneAware, overprovisioningFactor), null);
  }
}
