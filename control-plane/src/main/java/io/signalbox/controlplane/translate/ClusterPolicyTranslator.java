package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.duration;
import static io.signalbox.controlplane.translate.ProtoValues.uint32;
import static io.signalbox.controlplane.translate.ProtoValues.uint64;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.FloatValue;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin;
import io.envoyproxy.envoy.type.v3.Percent;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import java.util.Optional;

/**
 * The traffic-policy parts of a {@link Cluster}: panic threshold and locality mode ({@code
 * common_lb_config}), the retry budget, and client-side weighted round robin. docs/traffic-policy.md
 * says what each client does with them.
 */
final class ClusterPolicyTranslator {

  /** The extension name both Envoy and grpc-xds register client-side weighted round robin under. */
  static final String CSWRR = "envoy.load_balancing_policies.client_side_weighted_round_robin";

  private ClusterPolicyTranslator() {}

  /** {@code common_lb_config}, or empty when the cluster sets none of its parts. */
  static Optional<Cluster.CommonLbConfig> commonLbConfig(ClusterSpec spec) {
    if (spec.balancing().panicThreshold() == null && spec.locality().localityLb() == null) {
      return Optional.empty();
    }
    Cluster.CommonLbConfig.Builder common = Cluster.CommonLbConfig.newBuilder();
    if (spec.balancing().panicThreshold() != null) {
      common.setHealthyPanicThreshold(percent(spec.balancing().panicThreshold()));
    }
    if (spec.locality().localityLb() == LocalityLb.LOCALITY_WEIGHTED) {
      common.setLocalityWeightedLbConfig(Cluster.CommonLbConfig.LocalityWeightedLbConfig.getDefaultInstance());
    } else if (spec.locality().localityLb() == LocalityLb.ZONE_AWARE) {
      Cluster.CommonLbConfig.ZoneAwareLbConfig.Builder zoneAware = Cluster.CommonLbConfig.ZoneAwareLbConfig.newBuilder();
      ZoneAwareSpec settings = spec.locality().zoneAware();
      if (settings != null && settings.minClusterSize() != null) {
        zoneAware.setMinClusterSize(uint64(settings.minClusterSize()));
      }
      if (settings != null && settings.routingPercent() != null) {
        zoneAware.setRoutingEnabled(percent(settings.routingPercent()));
      }
      common.setZoneAwareLbConfig(zoneAware);
    }
    return Optional.of(common.build());
  }

  static CircuitBreakers.Thresholds.RetryBudget retryBudget(RetryBudgetSpec spec) {
    CircuitBreakers.Thresholds.RetryBudget.Builder budget = CircuitBreakers.Thresholds.RetryBudget.newBuilder();
    if (spec.budgetPercent() != null) {
      budget.setBudgetPercent(percent(spec.budgetPercent()));
    }
    if (spec.minRetryConcurrency() != null) {
      budget.setMinRetryConcurrency(uint32(spec.minRetryConcurrency()));
    }
    return budget.build();
  }

  /**
   * The policy alone, not wrapped in {@code wrr_locality}: Envoy has no {@code wrr_locality} (it is
   * gRPC's), and unwrapped grpc-xds spreads a priority's traffic over all its endpoints by their
   * reported load instead of first splitting it between zones by static weights.
   */
  static LoadBalancingPolicy weightedRoundRobin(WeightedRoundRobinSpec spec) {
    ClientSideWeightedRoundRobin.Builder wrr = ClientSideWeightedRoundRobin.newBuilder();
    if (spec != null) {
      if (spec.blackoutPeriod() != null) {
        wrr.setBlackoutPeriod(duration(spec.blackoutPeriod()));
      }
      if (spec.weightExpirationPeriod() != null) {
        wrr.setWeightExpirationPeriod(duration(spec.weightExpirationPeriod()));
      }
      if (spec.weightUpdatePeriod() != null) {
        wrr.setWeightUpdatePeriod(duration(spec.weightUpdatePeriod()));
      }
      if (spec.errorUtilizationPenalty() != null) {
        wrr.setErrorUtilizationPenalty(FloatValue.of(spec.errorUtilizationPenalty().floatValue()));
      }
      if (spec.enableOobLoadReport() != null) {
        wrr.setEnableOobLoadReport(BoolValue.of(spec.enableOobLoadReport()));
      }
      if (spec.oobReportingPeriod() != null) {
        wrr.setOobReportingPeriod(duration(spec.oobReportingPeriod()));
      }
    }
    return LoadBalancingPolicy.newBuilder()
        .addPolicies(LoadBalancingPolicy.Policy.newBuilder()
            .setTypedExtensionConfig(TypedExtensionConfig.newBuilder().setName(CSWRR).setTypedConfig(Any.pack(wrr.build()))))
        .build();
  }

  private static Percent percent(int value) {
    return Percent.newBuilder().setValue(value).build();
  }
}
