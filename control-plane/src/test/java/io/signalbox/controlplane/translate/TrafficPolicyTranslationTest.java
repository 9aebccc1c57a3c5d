package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ClusterSpecBuilder.cluster;
import static io.signalbox.controlplane.translate.Translations.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.FloatValue;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin;
import io.envoyproxy.envoy.type.v3.Percent;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.RetryPolicySpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import io.signalbox.validation.EnvoyResourceValidator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every traffic-policy field lands in Envoy's own field, and the result passes Envoy's PGV rules. */
class TrafficPolicyTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  private static final RouteSpec POLICED_ROUTE = new RouteSpec(new RouteMatchSpec("", null, null), "api", null,
      Duration.ofSeconds(5),
      List.of(
          new HashPolicySpec("x-user", null, null, null, null, null),
          new HashPolicySpec(null, new HashPolicySpec.CookieSpec("sid", Duration.ofHours(1), "/"), null, null, null, null),
          new HashPolicySpec(null, null, true, null, null, null),
          new HashPolicySpec(null, null, null, "tenant", null, null),
          new HashPolicySpec(null, null, null, null, true, true)),
      new RetryPolicySpec(List.of("unavailable", "reset", "5xx", "retriable-status-codes"), 2, Duration.ofSeconds(1),
          new RetryPolicySpec.BackoffSpec(Duration.ofMillis(25), Duration.ofMillis(250)), List.of(503)));

  private static DesiredState state(List<ClusterSpec> clusters, Map<String, List<EndpointSpec>> endpoints) {
    return new DesiredState("test.yaml", List.of(new ListenerSpec("api", true, null, null, "api")),
        List.of(new RouteConfigSpec("api", List.of(new VirtualHostSpec("api", List.of("*"), List.of(POLICED_ROUTE))))),
        clusters, endpoints);
  }

  private Cluster translateOne(ClusterSpec spec) {
    return Translations.cluster(translator.translate(Translations.clusters(spec)), spec.name());
  }

  @Test
  void routeCarriesEveryHashPolicyInOrderAndTheRetryPolicy() {
    RouteAction action = Translations.routeConfiguration(translator.translate(state(List.of(), Map.of())), "api")
        .getVirtualHosts(0).getRoutes(0).getRoute();

    assertThat(action.getHashPolicyList()).containsExactly(
        RouteAction.HashPolicy.newBuilder().setHeader(RouteAction.HashPolicy.Header.newBuilder().setHeaderName("x-user")).build(),
        RouteAction.HashPolicy.newBuilder().setCookie(RouteAction.HashPolicy.Cookie.newBuilder().setName("sid")
            .setTtl(Durations.fromSeconds(3600)).setPath("/")).build(),
        RouteAction.HashPolicy.newBuilder().setConnectionProperties(
            RouteAction.HashPolicy.ConnectionProperties.newBuilder().setSourceIp(true)).build(),
        RouteAction.HashPolicy.newBuilder().setQueryParameter(
            RouteAction.HashPolicy.QueryParameter.newBuilder().setName("tenant")).build(),
        RouteAction.HashPolicy.newBuilder().setFilterState(
            RouteAction.HashPolicy.FilterState.newBuilder().setKey("io.grpc.channel_id")).setTerminal(true).build());
    assertThat(action.getRetryPolicy()).isEqualTo(RetryPolicy.newBuilder()
        .setRetryOn("unavailable,reset,5xx,retriable-status-codes")
        .setNumRetries(UInt32Value.of(2))
        .setPerTryTimeout(Durations.fromSeconds(1))
        .setRetryBackOff(RetryPolicy.RetryBackOff.newBuilder()
            .setBaseInterval(Durations.fromMillis(25)).setMaxInterval(Durations.fromMillis(250)))
        .addRetriableStatusCodes(503)
        .build());
  }

  @Test
  void retryBudgetJoinsTheDefaultPriorityThresholds() {
    Cluster c = translateOne(cluster("api").circuitBreakers(new CircuitBreakersSpec(null, null, 100, null))
        .retryBudget(new RetryBudgetSpec(20, 3)).build());

    assertThat(c.getCircuitBreakers()).isEqualTo(CircuitBreakers.newBuilder().addThresholds(
        CircuitBreakers.Thresholds.newBuilder().setPriority(RoutingPriority.DEFAULT)
            .setMaxRequests(UInt32Value.of(100))
            .setRetryBudget(CircuitBreakers.Thresholds.RetryBudget.newBuilder()
                .setBudgetPercent(Percent.newBuilder().setValue(20)).setMinRetryConcurrency(UInt32Value.of(3))))
        .build());
    assertThat(translateOne(cluster("api").retryBudget(new RetryBudgetSpec(null, null)).build()).getCircuitBreakers()
        .getThresholds(0).hasRetryBudget()).as("an empty budget still turns Envoy's budget on, with its defaults").isTrue();
  }

  @Test
  void panicThresholdAndLocalityModeGoToCommonLbConfig() {
    assertThat(translateOne(cluster("api").panicThreshold(0).localityLb(LocalityLb.LOCALITY_WEIGHTED, null).build())
        .getCommonLbConfig())
        .isEqualTo(Cluster.CommonLbConfig.newBuilder().setHealthyPanicThreshold(Percent.newBuilder().setValue(0))
            .setLocalityWeightedLbConfig(Cluster.CommonLbConfig.LocalityWeightedLbConfig.getDefaultInstance()).build());
    assertThat(translateOne(cluster("api").localityLb(LocalityLb.ZONE_AWARE, new ZoneAwareSpec(3L, 80)).build())
        .getCommonLbConfig())
        .isEqualTo(Cluster.CommonLbConfig.newBuilder().setZoneAwareLbConfig(Cluster.CommonLbConfig.ZoneAwareLbConfig
            .newBuilder().setMinClusterSize(UInt64Value.of(3)).setRoutingEnabled(Percent.newBuilder().setValue(80)))
            .build());
    assertThat(translateOne(cluster("api").build()).hasCommonLbConfig()).isFalse();
  }

  @Test
  void maglevCarriesItsTableSize() {
    Cluster c = translateOne(cluster("api").lbPolicy(LbPolicy.MAGLEV).maglev(new MaglevSpec(65537L)).build());
    assertThat(c.getLbPolicy()).isEqualTo(Cluster.LbPolicy.MAGLEV);
    assertThat(c.getMaglevLbConfig().getTableSize()).isEqualTo(UInt64Value.of(65537));
  }

  @Test
  void weightedRoundRobinIsTheClientSideWeightedRoundRobinExtension() {
    Cluster c = translateOne(cluster("api").lbPolicy(LbPolicy.WEIGHTED_ROUND_ROBIN).weightedRoundRobin(
        new WeightedRoundRobinSpec(Duration.ofSeconds(1), Duration.ofMinutes(3), Duration.ofMillis(100), 0.5, false,
            Duration.ofSeconds(10))).build());

    assertThat(c.getLoadBalancingPolicy()).isEqualTo(LoadBalancingPolicy.newBuilder().addPolicies(
        LoadBalancingPolicy.Policy.newBuilder().setTypedExtensionConfig(TypedExtensionConfig.newBuilder()
            .setName("envoy.load_balancing_policies.client_side_weighted_round_robin")
            .setTypedConfig(Any.pack(ClientSideWeightedRoundRobin.newBuilder()
                .setBlackoutPeriod(Durations.fromSeconds(1))
                .setWeightExpirationPeriod(Durations.fromSeconds(180))
                .setWeightUpdatePeriod(Durations.fromMillis(100))
                .setErrorUtilizationPenalty(FloatValue.of(0.5f))
                .setEnableOobLoadReport(BoolValue.of(false))
                .setOobReportingPeriod(Durations.fromSeconds(10)).build())))).build());
    assertThat(translateOne(cluster("api").lbPolicy(LbPolicy.WEIGHTED_ROUND_ROBIN).build()).getLoadBalancingPolicy()
        .getPolicies(0).getTypedExtensionConfig().getTypedConfig())
        .isEqualTo(Any.pack(ClientSideWeightedRoundRobin.getDefaultInstance()));
  }

  @Test
  void overprovisioningFactorIsTheAssignmentsPolicyAndAChangeRebuildsOnlyTheAssignment() {
    List<EndpointSpec> endpoints = List.of(endpoint("10.0.0.1", 80, "a", 1, 0, EndpointState.READY));
    Translation first = translator.translate(state(List.of(cluster("api").overprovisioningFactor(140).build()),
        Map.of("api", endpoints)));
    Translation same = translator.translate(state(List.of(cluster("api").overprovisioningFactor(140).build()),
        Map.of("api", endpoints)), first);
    Translation changed = translator.translate(state(List.of(cluster("api").overprovisioningFactor(200).build()),
        Map.of("api", endpoints)), same);

    assertThat(Translations.assignment(first, "api").getPolicy().getOverprovisioningFactor())
        .isEqualTo(UInt32Value.of(140));
    assertThat(Translations.resource(same, io.signalbox.controlplane.snapshot.XdsType.ENDPOINT, "api"))
        .isSameAs(Translations.resource(first, io.signalbox.controlplane.snapshot.XdsType.ENDPOINT, "api"));
    assertThat(Translations.assignment(changed, "api").getPolicy().getOverprovisioningFactor())
        .isEqualTo(UInt32Value.of(200));
    assertThat(Translations.assignment(translator.translate(Translations.endpoints("api", endpoints.get(0))), "api")
        .hasPolicy()).as("unset: the clients' default").isFalse();
  }

  @Test
  void prioritiesSharingAZoneGetDistinctLocalities() {
    ClusterLoadAssignment cla = Translations.assignment(translator.translate(Translations.endpoints("api",
        endpoint("10.0.0.1", 80, "a", 1, 0, EndpointState.READY),
        endpoint("10.0.0.2", 80, "a", 1, 0, EndpointState.READY),
        endpoint("10.0.0.3", 80, "a", 1, 1, EndpointState.READY),
        endpoint("10.0.0.4", 80, "", 1, 2, EndpointState.READY))), "api");

    assertThat(cla.getEndpointsList()).extracting(LocalityLbEndpoints::getPriority, LocalityLbEndpoints::getLocality)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, Locality.newBuilder().setZone("a").build()),
            org.assertj.core.groups.Tuple.tuple(1, Locality.newBuilder().setZone("a").setSubZone("priority-1").build()),
            org.assertj.core.groups.Tuple.tuple(2, Locality.newBuilder().setSubZone("priority-2").build()));
  }

  @Test
  void everyTrafficPolicyResourcePassesEnvoysOwnValidation() {
    List<EndpointSpec> endpoints = List.of(endpoint("10.0.0.1", 80, "a", 1, 0, EndpointState.READY),
        endpoint("10.0.0.2", 80, "a", 1, 1, EndpointState.READY));
    Translation t = translator.translate(state(List.of(
        cluster("api").lbPolicy(LbPolicy.RING_HASH).retryBudget(new RetryBudgetSpec(20, 3)).panicThreshold(50)
            .localityLb(LocalityLb.LOCALITY_WEIGHTED, null).overprovisioningFactor(140).build(),
        cluster("near").localityLb(LocalityLb.ZONE_AWARE, new ZoneAwareSpec(6L, 100)).build(),
        cluster("table").lbPolicy(LbPolicy.MAGLEV).maglev(new MaglevSpec(65537L)).build(),
        cluster("orca").lbPolicy(LbPolicy.WEIGHTED_ROUND_ROBIN).weightedRoundRobin(
            new WeightedRoundRobinSpec(Duration.ZERO, Duration.ofMinutes(3), Duration.ofMillis(100), 1.0, true,
                Duration.ofSeconds(1))).build()),
        Map.of("api", endpoints, "near", endpoints, "table", endpoints, "orca", endpoints)));
    EnvoyResourceValidator envoy = new EnvoyResourceValidator();

    assertThat(t.resources()).hasSize(10);
    for (TranslatedResource r : t.resources()) {
      assertThat(envoy.validate(r.type() + " '" + r.name() + "'", r.message())).as(r.name()).isEmpty();
    }
  }
}
