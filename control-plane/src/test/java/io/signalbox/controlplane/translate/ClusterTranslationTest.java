package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ClusterSpecBuilder.cluster;
import static io.signalbox.controlplane.translate.Translations.clusters;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LeastRequestSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RingHashSpec;
import org.junit.jupiter.api.Test;

class ClusterTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  /** What every cluster shares: EDS over ADS (v3), its own name as service name, round robin. */
  private static Cluster.Builder edsCluster(String name, long connectTimeoutSeconds) {
    return Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(
            Cluster.EdsClusterConfig.newBuilder()
                .setEdsConfig(
                    ConfigSource.newBuilder()
                        .setAds(AggregatedConfigSource.getDefaultInstance())
                        .setResourceApiVersion(ApiVersion.V3))
                .setServiceName(name))
        .setConnectTimeout(seconds(connectTimeoutSeconds));
  }

  private static Duration seconds(long s) {
    return Duration.newBuilder().setSeconds(s).build();
  }

  private Cluster translateOne(ClusterSpec spec) {
    return Translations.cluster(translator.translate(clusters(spec)), spec.name());
  }

  @Test
  void translatesBareClusterToEdsOverAdsWithDefaults() {
    assertThat(translateOne(ClusterSpec.named("greeter")))
        .isEqualTo(edsCluster("greeter", 1).setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN).build());
  }

  @Test
  void referencesItsOwnLoadAssignment() {
    var resource =
        Translations.resource(translator.translate(clusters(ClusterSpec.named("greeter"))), XdsType.CLUSTER, "greeter");
    assertThat(resource.references()).containsExactly("greeter");
  }

  @Test
  void carriesTheConnectTimeoutIncludingFractions() {
    Cluster c = translateOne(cluster("c").connectTimeout(java.time.Duration.ofMillis(2500)).build());
    assertThat(c.getConnectTimeout()).isEqualTo(Duration.newBuilder().setSeconds(2).setNanos(500_000_000).build());
  }

  @Test
  void roundRobinWithSlowStartSetsTheRoundRobinSlowStartWindow() {
    Cluster c =
        translateOne(
            cluster("c").lbPolicy(LbPolicy.ROUND_ROBIN).slowStart(java.time.Duration.ofSeconds(30)).build());
    assertThat(c)
        .isEqualTo(
            edsCluster("c", 1)
                .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
                .setRoundRobinLbConfig(
                    Cluster.RoundRobinLbConfig.newBuilder()
                        .setSlowStartConfig(Cluster.SlowStartConfig.newBuilder().setSlowStartWindow(seconds(30))))
                .build());
  }

  @Test
  void leastRequestWithoutSettingsEmitsNoLbConfig() {
    assertThat(translateOne(cluster("c").lbPolicy(LbPolicy.LEAST_REQUEST).build()))
        .isEqualTo(edsCluster("c", 1).setLbPolicy(Cluster.LbPolicy.LEAST_REQUEST).build());
  }

  @Test
  void leastRequestCarriesChoiceCountAndSlowStart() {
    Cluster c =
        translateOne(
            cluster("c")
                .lbPolicy(LbPolicy.LEAST_REQUEST)
                .leastRequest(new LeastRequestSpec(3))
                .slowStart(java.time.Duration.ofSeconds(10))
                .build());
    assertThat(c)
        .isEqualTo(
            edsCluster("c", 1)
                .setLbPolicy(Cluster.LbPolicy.LEAST_REQUEST)
                .setLeastRequestLbConfig(
                    Cluster.LeastRequestLbConfig.newBuilder()
                        .setChoiceCount(UInt32Value.of(3))
                        .setSlowStartConfig(Cluster.SlowStartConfig.newBuilder().setSlowStartWindow(seconds(10))))
                .build());
  }

  @Test
  void ringHashCarriesOnlyTheRingSizesThatAreSet() {
    Cluster c =
        translateOne(cluster("c").lbPolicy(LbPolicy.RING_HASH).ringHash(new RingHashSpec(1024L, null)).build());
    assertThat(c)
        .isEqualTo(
            edsCluster("c", 1)
                .setLbPolicy(Cluster.LbPolicy.RING_HASH)
                .setRingHashLbConfig(Cluster.RingHashLbConfig.newBuilder().setMinimumRingSize(UInt64Value.of(1024)))
                .build());
  }

  @Test
  void ringHashCarriesBothRingSizes() {
    Cluster c =
        translateOne(cluster("c").lbPolicy(LbPolicy.RING_HASH).ringHash(new RingHashSpec(64L, 4096L)).build());
    assertThat(c.getRingHashLbConfig())
        .isEqualTo(
            Cluster.RingHashLbConfig.newBuilder()
                .setMinimumRingSize(UInt64Value.of(64))
                .setMaximumRingSize(UInt64Value.of(4096))
                .build());
  }

  @Test
  void ringHashWithoutSettingsEmitsNoLbConfig() {
    assertThat(translateOne(cluster("c").lbPolicy(LbPolicy.RING_HASH).ringHash(new RingHashSpec(null, null)).build()))
        .isEqualTo(edsCluster("c", 1).setLbPolicy(Cluster.LbPolicy.RING_HASH).build());
  }

  @Test
  void maglevAndRandomMapToTheirPolicies() {
    assertThat(translateOne(cluster("m").lbPolicy(LbPolicy.MAGLEV).build()))
        .isEqualTo(edsCluster("m", 1).setLbPolicy(Cluster.LbPolicy.MAGLEV).build());
    assertThat(translateOne(cluster("r").lbPolicy(LbPolicy.RANDOM).build()))
        .isEqualTo(edsCluster("r", 1).setLbPolicy(Cluster.LbPolicy.RANDOM).build());
  }

  @Test
  void slowStartIsDroppedForPoliciesEnvoyCannotSlowStart() {
    assertThat(translateOne(cluster("m").lbPolicy(LbPolicy.MAGLEV).slowStart(java.time.Duration.ofSeconds(30)).build()))
        .isEqualTo(edsCluster("m", 1).setLbPolicy(Cluster.LbPolicy.MAGLEV).build());
  }

  @Test
  void maxEjectionPercentAloneEnablesOutlierDetectionWithThatCap() {
    Cluster c = translateOne(cluster("c").maxEjectionPercent(10).build());
    assertThat(c.getOutlierDetection())
        .isEqualTo(OutlierDetection.newBuilder().setMaxEjectionPercent(UInt32Value.of(10)).build());
  }

  @Test
  void outlierDetectionCarriesEverySetField() {
    Cluster c =
        translateOne(
            cluster("c")
                .maxEjectionPercent(25)
                .outlierDetection(
                    new OutlierDetectionSpec(
                        5, java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(30), 100))
                .build());
    assertThat(c)
        .isEqualTo(
            edsCluster("c", 1)
                .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
                .setOutlierDetection(
                    OutlierDetection.newBuilder()
                        .setMaxEjectionPercent(UInt32Value.of(25))
                        .setConsecutive5Xx(UInt32Value.of(5))
                        .setInterval(seconds(10))
                        .setBaseEjectionTime(seconds(30))
                        .setEnforcingConsecutive5Xx(UInt32Value.of(100)))
                .build());
  }

  @Test
  void emptyOutlierDetectionStillEnablesItBecausePresenceIsTheSwitch() {
    Cluster c = translateOne(cluster("c").outlierDetection(new OutlierDetectionSpec(null, null, null, null)).build());
    assertThat(c.hasOutlierDetection()).isTrue();
    assertThat(c.getOutlierDetection()).isEqualTo(OutlierDetection.getDefaultInstance());
  }

  @Test
  void noOutlierDetectionWhenNothingAsksForIt() {
    assertThat(translateOne(ClusterSpec.named("c")).hasOutlierDetection()).isFalse();
  }

  @Test
  void circuitBreakersBecomeOneDefaultPriorityThreshold() {
    Cluster c = translateOne(cluster("c").circuitBreakers(new CircuitBreakersSpec(100, 50, null, 3)).build());
    assertThat(c.getCircuitBreakers())
        .isEqualTo(
            CircuitBreakers.newBuilder()
                .addThresholds(
                    CircuitBreakers.Thresholds.newBuilder()
                        .setPriority(RoutingPriority.DEFAULT)
                        .setMaxConnections(UInt32Value.of(100))
                        .setMaxPendingRequests(UInt32Value.of(50))
                        .setMaxRetries(UInt32Value.of(3)))
                .build());
  }

  @Test
  void circuitBreakersWithNothingSetAreOmitted() {
    Cluster c = translateOne(cluster("c").circuitBreakers(new CircuitBreakersSpec(null, null, null, null)).build());
    assertThat(c.hasCircuitBreakers()).isFalse();
  }

  @Test
  void httpHealthCheckCarriesPathTimingAndThresholds() {
    Cluster c =
        translateOne(
            cluster("c")
                .healthCheck(
                    new HealthCheckSpec(
                        java.time.Duration.ofSeconds(2), java.time.Duration.ofSeconds(5), 4, 1, "/healthz", null))
                .build());
    assertThat(c.getHealthChecksList())
        .containsExactly(
            HealthCheck.newBuilder()
                .setTimeout(seconds(2))
                .setInterval(seconds(5))
                .setUnhealthyThreshold(UInt32Value.of(4))
                .setHealthyThreshold(UInt32Value.of(1))
                .setHttpHealthCheck(HealthCheck.HttpHealthCheck.newBuilder().setPath("/healthz"))
                .build());
  }

  @Test
  void grpcHealthCheck() {
    Cluster c =
        translateOne(
            cluster("c")
                .healthCheck(
                    new HealthCheckSpec(java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(3), 2, 2, null, true))
                .build());
    assertThat(c.getHealthChecks(0).getHealthCheckerCase()).isEqualTo(HealthCheck.HealthCheckerCase.GRPC_HEALTH_CHECK);
    assertThat(c.getHealthChecks(0).getGrpcHealthCheck()).isEqualTo(HealthCheck.GrpcHealthCheck.getDefaultInstance());
  }

  @Test
  void healthCheckWithoutHttpOrGrpcIsTcpAndMissingRequiredFieldsTakeDefaults() {
    Cluster c = translateOne(cluster("c").healthCheck(new HealthCheckSpec(null, null, null, null, null, false)).build());
    assertThat(c.getHealthChecksList())
        .containsExactly(
            HealthCheck.newBuilder()
                .setTimeout(seconds(1))
                .setInterval(seconds(10))
                .setUnhealthyThreshold(UInt32Value.of(3))
                .setHealthyThreshold(UInt32Value.of(2))
                .setTcpHealthCheck(HealthCheck.TcpHealthCheck.getDefaultInstance())
                .build());
  }
}
