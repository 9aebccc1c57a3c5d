package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientSupportRulesTest {

  private static List<String> check(ClientSupportRules.Served served, Map<ClientKind, Integer> connected) {
    return ClientSupportRules.check(served, connected).stream().map(Violation::toString).toList();
  }

  private static ClientSupportRules.Served clusters(Cluster... clusters) {
    return new ClientSupportRules.Served(List.of(clusters), List.of(), List.of());
  }

  private static Cluster cluster(String name, Cluster.LbPolicy policy) {
    return Cluster.newBuilder().setName(name).setLbPolicy(policy)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setServiceName(name)).build();
  }

  private static LbEndpoint endpoint(String address, int weight, HealthStatus health) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress(address).setPortValue(8080))))
        .setHealthStatus(health)
        .setLoadBalancingWeight(UInt32Value.of(weight))
        .build();
  }

  private static LocalityLbEndpoints locality(String zone, int priority, LbEndpoint... endpoints) {
    int sum = 0;
    for (LbEndpoint e : endpoints) {
      sum += e.getLoadBalancingWeight().getValue();
    }
    return LocalityLbEndpoints.newBuilder().setLocality(Locality.newBuilder().setZone(zone)).setPriority(priority)
        .setLoadBalancingWeight(UInt32Value.of(sum)).addAllLbEndpoints(List.of(endpoints)).build();
  }

  private static ClusterLoadAssignment dropping(String cluster, String... categoryAndPerMillion) {
    ClusterLoadAssignment.Policy.Builder policy = ClusterLoadAssignment.Policy.newBuilder();
    for (int i = 0; i < categoryAndPerMillion.length; i += 2) {
      policy.addDropOverloads(ClusterLoadAssignment.Policy.DropOverload.newBuilder()
          .setCategory(categoryAndPerMillion[i])
          .setDropPercentage(io.envoyproxy.envoy.type.v3.FractionalPercent.newBuilder()
              .setNumerator(Integer.parseInt(categoryAndPerMillion[i + 1]))
              .setDenominator(io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.MILLION)));
    }
    return ClusterLoadAssignment.newBuilder().setClusterName(cluster)
        .addEndpoints(locality("a", 0, endpoint("10.0.0.1", 1, HealthStatus.HEALTHY))).setPolicy(policy).build();
  }

  @Test
  void saysThatEnvoyIsSentOnlyTheLargestOfSeveralDropCategories() {
    var served = new ClientSupportRules.Served(List.of(), List.of(
        dropping("web", "signalbox_operator", "200000", "signalbox_overload", "350000"),
        dropping("api", "signalbox_operator", "500000")), List.of());

    assertThat(check(served, Map.of(ClientKind.ENVOY, 2, ClientKind.GRPC_JAVA, 3))).containsExactly(
        "endpoints of cluster 'web': drop overloads: 2 envoy clients honour one category: they are sent "
            + "'signalbox_overload' at 35% alone, not the 2 categories the other clients apply in order "
            + "[client.reduced] (warning)");
    assertThat(check(served, Map.of(ClientKind.GRPC_JAVA, 3, ClientKind.GRPC_JS, 1))).isEmpty();
  }

  @Test
  void namesHowManyClientsOfEachKindWillNackAPolicy() {
    assertThat(check(clusters(cluster("web", Cluster.LbPolicy.LEAST_REQUEST)),
        Map.of(ClientKind.GRPC_JS, 2, ClientKind.GRPC_JAVA, 5)))
        .containsExactly("cluster 'web': lbPolicy LEAST_REQUEST: 2 grpc-js clients will NACK it [client.rejected] (warning)");
  }

  @Test
  void namesEveryKindThatNacksAndEveryKindThatIgnoresInOneWarningEach() {
    assertThat(check(clusters(cluster("web", Cluster.LbPolicy.MAGLEV)),
        Map.of(ClientKind.GRPC_JS, 2, ClientKind.GRPC_JAVA, 1, ClientKind.ARMERIA, 3, ClientKind.ENVOY, 4)))
        .containsExactly(
            "cluster 'web': lbPolicy MAGLEV: 1 grpc-java client and 2 grpc-js clients will NACK it [client.rejected] (warning)",
            "cluster 'web': lbPolicy MAGLEV: 3 armeria clients will ignore it (armeria: falls back to round robin, "
                + "no NACK) [client.ignored] (warning)");
  }

  @Test
  void warnsAboutNothingWhenNoClientOfAKindThatMindsIsConnected() {
    assertThat(check(clusters(cluster("web", Cluster.LbPolicy.LEAST_REQUEST)), Map.of(ClientKind.GRPC_JAVA, 3)))
        .isEmpty();
    assertThat(check(clusters(cluster("web", Cluster.LbPolicy.LEAST_REQUEST)), Map.of(ClientKind.GRPC_JS, 0)))
        .isEmpty();
    assertThat(check(clusters(cluster("web", Cluster.LbPolicy.ROUND_ROBIN)),
        Map.of(ClientKind.GRPC_JS, 1, ClientKind.ARMERIA, 1))).isEmpty();
  }

  @Test
  void warnsAboutEndpointWeightsUnderRoundRobinButNotUnderRingHash() {
    ClusterLoadAssignment web = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(locality("a", 0, endpoint("10.0.0.1", 1, HealthStatus.HEALTHY),
            endpoint("10.0.0.2", 5, HealthStatus.HEALTHY)))
        .build();
    ClusterLoadAssignment hashed = web.toBuilder().setClusterName("hashed").build();
    var served = new ClientSupportRules.Served(
        List.of(cluster("web", Cluster.LbPolicy.ROUND_ROBIN), cluster("hashed", Cluster.LbPolicy.RING_HASH)),
        List.of(web, hashed), List.of());
    assertThat(check(served, Map.of(ClientKind.GRPC_JS, 2)))
        .containsExactly("endpoints of cluster 'web': endpoint weights: 2 grpc-js clients will ignore them "
            + "(grpc-js: round robin treats endpoints alike; ring hash uses them) [client.ignored] (warning)");
  }

  @Test
  void warnsThatGrpcJsNacksDnsNamesAndArmeriaIgnoresLocalityWeightsWithoutLocalityWeightedLb() {
    ClusterLoadAssignment web = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(locality("a", 0, endpoint("backend.example.org", 1, HealthStatus.HEALTHY)))
        .addEndpoints(locality("b", 0, endpoint("10.0.0.2", 3, HealthStatus.HEALTHY)))
        .build();
    var served = new ClientSupportRules.Served(List.of(cluster("web", Cluster.LbPolicy.ROUND_ROBIN)), List.of(web),
        List.of());
    assertThat(check(served, Map.of(ClientKind.GRPC_JS, 1, ClientKind.ARMERIA, 1)))
        .containsExactly(
            "endpoints of cluster 'web': locality weights: 1 armeria client will ignore them "
                + "(armeria: only with localityLb: LOCALITY_WEIGHTED) [client.ignored] (warning)",
            "endpoints of cluster 'web': DNS-name endpoints: 1 grpc-js client will NACK them [client.rejected] (warning)");
    Cluster weighted = cluster("web", Cluster.LbPolicy.ROUND_ROBIN).toBuilder()
        .setCommonLbConfig(Cluster.CommonLbConfig.newBuilder().setLocalityWeightedLbConfig(
            Cluster.CommonLbConfig.LocalityWeightedLbConfig.getDefaultInstance()))
        .build();
    assertThat(check(new ClientSupportRules.Served(List.of(weighted), List.of(web), List.of()),
        Map.of(ClientKind.ARMERIA, 1))).isEmpty();
  }

  @Test
  void aDrainDrawsNoWarningBecauseItReachesArmeriaThroughItsNodeGroup() {
    ClusterLoadAssignment web = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(locality("a", 0, endpoint("10.0.0.1", 1, HealthStatus.HEALTHY),
            endpoint("10.0.0.2", 1, HealthStatus.DRAINING)))
        .build();
    assertThat(check(new ClientSupportRules.Served(List.of(cluster("web", Cluster.LbPolicy.ROUND_ROBIN)),
        List.of(web), List.of()), Map.of(ClientKind.ARMERIA, 2))).isEmpty();
  }

  @Test
  void warnsThatArmeriaIgnoresAHashPolicyAndDoesNotClaimToKnowWhatItDoesWithRetries() {
    RouteConfiguration config = RouteConfiguration.newBuilder().setName("api")
        .addVirtualHosts(VirtualHost.newBuilder().setName("api").addDomains("*")
            .addRoutes(Route.newBuilder().setRoute(RouteAction.newBuilder().setCluster("web")
                .addHashPolicy(RouteAction.HashPolicy.newBuilder().setHeader(
                    RouteAction.HashPolicy.Header.newBuilder().setHeaderName("x-user")))
                .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("unavailable")))))
        .build();
    assertThat(check(new ClientSupportRules.Served(List.of(), List.of(), List.of(config)),
        Map.of(ClientKind.ARMERIA, 1, ClientKind.GRPC_JS, 1)))
        .containsExactly("route config 'api': hashPolicy: 1 armeria client will ignore it "
            + "(armeria: falls back to round robin, no NACK) [client.ignored] (warning)");
  }

  /** Cluster web's one endpoint, with an envoy.lb hash_key and an IPv6 additional address. */
  static ClusterLoadAssignment keyedDualStack() {
    var keyed = endpoint("10.0.0.1", 1, HealthStatus.HEALTHY).toBuilder()
        .setMetadata(io.envoyproxy.envoy.config.core.v3.Metadata.newBuilder().putFilterMetadata("envoy.lb",
            com.google.protobuf.Struct.newBuilder().putFields("hash_key",
                com.google.protobuf.Value.newBuilder().setStringValue("web-0").build()).build()))
        .build();
    var dual = keyed.toBuilder().setEndpoint(keyed.getEndpoint().toBuilder().addAdditionalAddresses(
        io.envoyproxy.envoy.config.endpoint.v3.Endpoint.AdditionalAddress.newBuilder().setAddress(
            io.envoyproxy.envoy.config.core.v3.Address.newBuilder().setSocketAddress(
                io.envoyproxy.envoy.config.core.v3.SocketAddress.newBuilder().setAddress("fd00::1").setPortValue(80)))))
        .build();
    ClusterLoadAssignment web = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(locality("a", 0, dual)).build();
    return web;
  }

  @Test
  void warnsThatGrpcJavaWithoutItsFlagsIgnoresHashKeysAndAdditionalAddresses() {
    ClusterLoadAssignment web = keyedDualStack();
    var served = new ClientSupportRules.Served(List.of(cluster("web", Cluster.LbPolicy.RING_HASH)), List.of(web),
        List.of());

    assertThat(check(served, Map.of(ClientKind.GRPC_JAVA, 2, ClientKind.ENVOY, 1))).containsExactly(
        "endpoints of cluster 'web': endpoint hash keys: 2 grpc-java clients will ignore them (grpc-java: places "
            + "endpoints by address; no flag enables A76 endpoint keys) [client.ignored] (warning)",
        "endpoints of cluster 'web': additional addresses: 2 grpc-java clients will ignore them (grpc-java: uses the "
            + "primary address; applied with GRPC_EXPERIMENTAL_XDS_DUALSTACK_ENDPOINTS=true) [client.ignored] (warning)");
  }

  @Test
  void grpcJsAppliesAdditionalAddressesWhileArmeriaIgnoresThemAndBothIgnoreHashKeysAndAuthorityRewrite() {
    ClusterLoadAssignment web = keyedDualStack();
    RouteConfiguration rewrite = RouteConfiguration.newBuilder().setName("api").addVirtualHosts(
        VirtualHost.newBuilder().setName("api").addDomains("*").addRoutes(Route.newBuilder()
            .setMatch(io.envoyproxy.envoy.config.route.v3.RouteMatch.newBuilder().setPrefix(""))
            .setRoute(RouteAction.newBuilder().setCluster("web")
                .setAutoHostRewrite(com.google.protobuf.BoolValue.of(true))))).build();
    var served = new ClientSupportRules.Served(List.of(cluster("web", Cluster.LbPolicy.RING_HASH)), List.of(web),
        List.of(rewrite));

    assertThat(check(served, Map.of(ClientKind.GRPC_JS, 2, ClientKind.ARMERIA, 1))).containsExactly(
        "cluster 'web': lbPolicy RING_HASH: 1 armeria client will ignore it (armeria: falls back to round robin, "
            + "no NACK) [client.ignored] (warning)",
        "endpoints of cluster 'web': endpoint hash keys: 2 grpc-js clients and 1 armeria client will ignore them "
            + "(grpc-js: places endpoints by address; armeria: falls back to round robin, no NACK) [client.ignored]"
            + " (warning)",
        "endpoints of cluster 'web': additional addresses: 1 armeria client will ignore them "
            + "(armeria: uses the primary address) [client.ignored] (warning)",
        "route config 'api': autoHostRewrite: 2 grpc-js clients and 1 armeria client will ignore it "
            + "(grpc-js: not read; armeria: not read; it takes Endpoint.hostname as the endpoint's host name)"
            + " [client.ignored] (warning)");
  }
}
