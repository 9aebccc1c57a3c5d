package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.ADS;
import static io.signalbox.controlplane.translate.ProtoValues.duration;
import static io.signalbox.controlplane.translate.ProtoValues.uint32;
import static io.signalbox.controlplane.translate.ProtoValues.uint64;

import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.OutlierDetectionSpec;
import java.time.Duration;

/**
 * {@link ClusterSpec} to an EDS {@link Cluster}. Unset optional parts are left out rather than sent
 * as empty messages, with two deliberate exceptions where presence itself means something to Envoy:
 * {@code outlier_detection} (present = enabled with Envoy's defaults) and {@code health_checks}.
 */
final class ClusterTranslator {

  /**
   * Envoy rejects a {@code HealthCheck} without timeout, interval and both thresholds (they are
   * {@code required} in its protoc-gen-validate rules), so a health check declared without them
   * gets these rather than a resource every client would NACK.
   */
  static final Duration DEFAULT_HEALTH_CHECK_TIMEOUT = Duration.ofSeconds(1);

  static final Duration DEFAULT_HEALTH_CHECK_INTERVAL = Duration.ofSeconds(10);
  static final int DEFAULT_UNHEALTHY_THRESHOLD = 3;
  static final int DEFAULT_HEALTHY_THRESHOLD = 2;

  private ClusterTranslator() {}

  static Cluster toCluster(ClusterSpec spec) {
    Cluster.Builder cluster =
        Cluster.newBuilder()
            .setName(spec.name())
            .setType(Cluster.DiscoveryType.EDS)
            .setEdsClusterConfig(
                Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS).setServiceName(spec.name()))
            .setConnectTimeout(duration(spec.effectiveConnectTimeout()));
    loadBalancing(spec, cluster);
    ClusterPolicyTranslator.commonLbConfig(spec).ifPresent(cluster::setCommonLbConfig);
    if (spec.maxEjectionPercent() != null || spec.outlierDetection() != null) {
      cluster.setOutlierDetection(outlierDetection(spec.maxEjectionPercent(), spec.outlierDetection()));
    }
    if ((spec.circuitBreakers() != null && hasAny(spec.circuitBreakers())) || spec.retryBudget() != null) {
      CircuitBreakers.Thresholds.Builder thresholds = thresholds(spec.circuitBreakers());
      if (spec.retryBudget() != null) {
        thresholds.setRetryBudget(ClusterPolicyTranslator.retryBudget(spec.retryBudget()));
      }
      cluster.setCircuitBreakers(CircuitBreakers.newBuilder().addThresholds(thresholds));
    }
    if (spec.healthCheck() != null) {
      cluster.addHealthChecks(healthCheck(spec.healthCheck()));
    }
    if (spec.reportsLoad()) {
      cluster.setLrsServer(ProtoValues.SELF);
    }
    return cluster.build();
  }

  private static void loadBalancing(ClusterSpec spec, Cluster.Builder cluster) {
    // Envoy supports a slow-start window only for ROUND_ROBIN and LEAST_REQUEST; for the other
    // policies it has no field to carry it, so it is dropped (the validator may warn).
    Cluster.SlowStartConfig slowStart =
        spec.slowStart() == null
            ? null
            : Cluster.SlowStartConfig.newBuilder().setSlowStartWindow(duration(spec.slowStart())).build();
    switch (spec.effectiveLbPolicy()) {
      case ROUND_ROBIN -> {
        cluster.setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN);
        if (slowStart != null) {
          cluster.setRoundRobinLbConfig(Cluster.RoundRobinLbConfig.newBuilder().setSlowStartConfig(slowStart));
        }
      }
      case LEAST_REQUEST -> {
        cluster.setLbPolicy(Cluster.LbPolicy.LEAST_REQUEST);
        Integer choiceCount = spec.leastRequest() == null ? null : spec.leastRequest().choiceCount();
        if (choiceCount != null || slowStart != null) {
          Cluster.LeastRequestLbConfig.Builder config = Cluster.LeastRequestLbConfig.newBuilder();
          if (choiceCount != null) {
            config.setChoiceCount(uint32(choiceCount));
          }
          if (slowStart != null) {
            config.setSlowStartConfig(slowStart);
          }
          cluster.setLeastRequestLbConfig(config);
        }
      }
      case RING_HASH -> {
        cluster.setLbPolicy(Cluster.LbPolicy.RING_HASH);
        var ring = spec.ringHash();
        if (ring != null && (ring.minimumRingSize() != null || ring.maximumRingSize() != null)) {
          Cluster.RingHashLbConfig.Builder config = Cluster.RingHashLbConfig.newBuilder();
          if (ring.minimumRingSize() != null) {
            config.setMinimumRingSize(uint64(ring.minimumRingSize()));
          }
          if (ring.maximumRingSize() != null) {
            config.setMaximumRingSize(uint64(ring.maximumRingSize()));
          }
          cluster.setRingHashLbConfig(config);
        }
      }
      case MAGLEV -> {
        cluster.setLbPolicy(Cluster.LbPolicy.MAGLEV);
        if (spec.maglev() != null && spec.maglev().tableSize() != null) {
          cluster.setMaglevLbConfig(Cluster.MaglevLbConfig.newBuilder().setTableSize(uint64(spec.maglev().tableSize())));
        }
      }
      case RANDOM -> cluster.setLbPolicy(Cluster.LbPolicy.RANDOM);
      // No enum value exists for it: lb_policy stays unset (ROUND_ROBIN, 0), which both Envoy and
      // grpc-xds ignore once load_balancing_policy is set.
      case WEIGHTED_ROUND_ROBIN -> cluster.setLoadBalancingPolicy(
          ClusterPolicyTranslator.weightedRoundRobin(spec.weightedRoundRobin()));
    }
  }

  private static OutlierDetection outlierDetection(Integer maxEjectionPercent, OutlierDetectionSpec spec) {
    OutlierDetection.Builder od = OutlierDetection.newBuilder();
    if (maxEjectionPercent != null) {
      od.setMaxEjectionPercent(uint32(maxEjectionPercent));
    }
    if (spec != null) {
      if (spec.consecutive5xx() != null) {
        od.setConsecutive5Xx(uint32(spec.consecutive5xx()));
      }
      if (spec.interval() != null) {
        od.setInterval(duration(spec.interval()));
      }
      if (spec.baseEjectionTime() != null) {
        od.setBaseEjectionTime(duration(spec.baseEjectionTime()));
      }
      if (spec.enforcingConsecutive5xx() != null) {
        od.setEnforcingConsecutive5Xx(uint32(spec.enforcingConsecutive5xx()));
      }
    }
    return od.build();
  }

  private static boolean hasAny(CircuitBreakersSpec cb) {
    return cb.maxConnections() != null
        || cb.maxPendingRequests() != null
        || cb.maxRequests() != null
        || cb.maxRetries() != null;
  }

  private static CircuitBreakers.Thresholds.Builder thresholds(CircuitBreakersSpec cb) {
    CircuitBreakers.Thresholds.Builder t =
        CircuitBreakers.Thresholds.newBuilder().setPriority(RoutingPriority.DEFAULT);
    if (cb == null) {
      return t;
    }
    if (cb.maxConnections() != null) {
      t.setMaxConnections(uint32(cb.maxConnections()));
    }
    if (cb.maxPendingRequests() != null) {
      t.setMaxPendingRequests(uint32(cb.maxPendingRequests()));
    }
    if (cb.maxRequests() != null) {
      t.setMaxRequests(uint32(cb.maxRequests()));
    }
    if (cb.maxRetries() != null) {
      t.setMaxRetries(uint32(cb.maxRetries()));
    }
    return t;
  }

  private static HealthCheck healthCheck(HealthCheckSpec hc) {
    HealthCheck.Builder check =
        HealthCheck.newBuilder()
            .setTimeout(duration(hc.timeout() != null ? hc.timeout() : DEFAULT_HEALTH_CHECK_TIMEOUT))
            .setInterval(duration(hc.interval() != null ? hc.interval() : DEFAULT_HEALTH_CHECK_INTERVAL))
            .setUnhealthyThreshold(
                uint32(hc.unhealthyThreshold() != null ? hc.unhealthyThreshold() : DEFAULT_UNHEALTHY_THRESHOLD))
            .setHealthyThreshold(
                uint32(hc.healthyThreshold() != null ? hc.healthyThreshold() : DEFAULT_HEALTHY_THRESHOLD));
    if (hc.httpPath() != null) {
      check.setHttpHealthCheck(HealthCheck.HttpHealthCheck.newBuilder().setPath(hc.httpPath()));
    } else if (Boolean.TRUE.equals(hc.grpc())) {
      check.setGrpcHealthCheck(HealthCheck.GrpcHealthCheck.getDefaultInstance());
    } else {
      check.setTcpHealthCheck(HealthCheck.TcpHealthCheck.getDefaultInstance());
    }
    return check.build();
  }
}
