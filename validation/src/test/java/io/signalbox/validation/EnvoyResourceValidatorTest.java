package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.StringValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnvoyResourceValidatorTest {

  private final EnvoyResourceValidator validator = new EnvoyResourceValidator();

  private static List<String> rendered(List<Violation> violations) {
    assertThat(violations).allSatisfy(v -> assertThat(v.isError()).isTrue());
    return violations.stream().map(v -> v.path() + ": " + v.message()).toList();
  }

  private static HttpConnectionManager.Builder hcm() {
    return HttpConnectionManager.newBuilder()
        .setStatPrefix("ingress")
        .setRds(Rds.newBuilder()
            .setRouteConfigName("web")
            .setConfigSource(ConfigSource.newBuilder().setAds(AggregatedConfigSource.getDefaultInstance())))
        .addHttpFilters(HttpFilter.newBuilder()
            .setName("envoy.filters.http.router")
            .setTypedConfig(Any.pack(Router.getDefaultInstance())));
  }

  private static Listener.Builder socketListener(HttpConnectionManager manager) {
    return Listener.newBuilder()
        .setName("ingress")
        .setAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("0.0.0.0").setPortValue(10000)))
        .addFilterChains(FilterChain.newBuilder()
            .addFilters(Filter.newBuilder()
                .setName("envoy.filters.network.http_connection_manager")
                .setTypedConfig(Any.pack(manager))));
  }

  private static LbEndpoint lbEndpoint(String address, int port) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder()
            .setAddress(Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress(address).setPortValue(port))))
        .build();
  }

  @Test
  void reportsOutlierDetectionPercentAboveHundred() {
    Cluster cluster = Cluster.newBuilder()
        .setName("c")
        .setOutlierDetection(OutlierDetection.newBuilder().setMaxEjectionPercent(UInt32Value.of(150)))
        .build();

    assertThat(rendered(validator.validate("cluster 'c'", cluster)))
        .containsExactly("cluster 'c': outlier_detection.max_ejection_percent: must be <= 100, was 150");
    assertThat(validator.validate("cluster 'c'", cluster).get(0).rule()).isEqualTo("envoy.pgv");
  }

  @Test
  void reportsListenerWithEmptyName() {
    Listener listener = socketListener(hcm().build()).setName("").build();

    List<Violation> violations = validator.validate("listener ''", listener);

    assertThat(rendered(violations)).containsExactly("listener '': name: is required");
    assertThat(violations.get(0).rule()).isEqualTo("envoy.resource-name");
  }

  @Test
  void followsAnyIntoTheConnectionManagerOfAFilterChain() {
    Listener listener = socketListener(hcm().setStatPrefix("").build()).build();

    assertThat(rendered(validator.validate("listener 'ingress'", listener)))
        .containsExactly(
            "listener 'ingress': filter_chains[0].filters[0].typed_config.stat_prefix: must be at least 1 character(s), was 0");
  }

  @Test
  void reportsRequiredOneofLeftUnset() {
    Listener listener = socketListener(hcm().clearRds().build()).build();

    assertThat(rendered(validator.validate("listener 'ingress'", listener)))
        .containsExactly(
            "listener 'ingress': filter_chains[0].filters[0].typed_config.route_specifier: "
                + "is required (set one of rds, route_config, scoped_routes)");
  }

  @Test
  void checksApiListenerConnectionManager() {
    Listener listener = Listener.newBuilder()
        .setName("greeter")
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm().setStatPrefix("").build())))
        .build();

    assertThat(rendered(validator.validate("listener 'greeter'", listener)))
        .containsExactly("listener 'greeter': api_listener.api_listener.stat_prefix: must be at least 1 character(s), was 0");
  }

  @Test
  void reportsEndpointPortPathThroughTheLoadAssignment() {
    Cluster cluster = Cluster.newBuilder()
        .setName("greeter")
        .setLoadAssignment(ClusterLoadAssignment.newBuilder()
            .setClusterName("greeter")
            .addEndpoints(LocalityLbEndpoints.newBuilder()
                .addLbEndpoints(lbEndpoint("10.0.0.1", 8080))
                .addLbEndpoints(lbEndpoint("10.0.0.2", 70000))))
        .build();

    assertThat(rendered(validator.validate("cluster 'greeter'", cluster)))
        .containsExactly(
            "cluster 'greeter': load_assignment.endpoints[0].lb_endpoints[1].endpoint.address.socket_address.port_value: "
                + "must be <= 65535, was 70000");
  }

  @Test
  void reportsEveryViolationOfARouteConfigurationAtOnce() {
    RouteConfiguration config = RouteConfiguration.newBuilder()
        .setName("web")
        .addVirtualHosts(VirtualHost.newBuilder()
            .setName("")
            .addRoutes(Route.newBuilder().setRoute(RouteAction.newBuilder().setCluster("greeter"))))
        .build();

    assertThat(rendered(validator.validate("route config 'web'", config)))
        .containsExactly(
            "route config 'web': virtual_hosts[0].name: must be at least 1 character(s), was 0",
            "route config 'web': virtual_hosts[0].domains: must have at least 1 item(s)",
            "route config 'web': virtual_hosts[0].routes[0].match: is required");
  }

  @Test
  void reportsDurationAndEnumRules() {
    Cluster cluster = Cluster.newBuilder()
        .setName("c")
        .setConnectTimeout(Duration.newBuilder().setSeconds(0))
        .setLbPolicyValue(99)
        .build();

    assertThat(rendered(validator.validate("cluster 'c'", cluster)))
        .containsExactly(
            "cluster 'c': connect_timeout: must be > 0s, was 0s",
            "cluster 'c': lb_policy: must be a defined LbPolicy value, was 99");
  }

  @Test
  void reportsLoadAssignmentWithoutClusterName() {
    ClusterLoadAssignment cla = ClusterLoadAssignment.newBuilder()
        .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(lbEndpoint("10.0.0.1", 8080)))
        .build();

    assertThat(rendered(validator.validate("endpoints of cluster ''", cla)))
        .containsExactly("endpoints of cluster '': cluster_name: must be at least 1 character(s), was 0");
  }

  @Test
  void leavesAnyOfUnknownTypeAlone() {
    Listener listener = Listener.newBuilder()
        .setName("ingress")
        .addFilterChains(FilterChain.newBuilder()
            .addFilters(Filter.newBuilder().setName("custom").setTypedConfig(Any.pack(StringValue.of("x")))))
        .build();

    assertThat(validator.validate("listener 'ingress'", listener)).isEmpty();
  }

  @Test
  void reportsAnyThatCannotBeDecoded() {
    Listener listener = Listener.newBuilder()
        .setName("ingress")
        .addFilterChains(FilterChain.newBuilder()
            .addFilters(Filter.newBuilder()
                .setName("hcm")
                .setTypedConfig(Any.newBuilder()
                    .setTypeUrl("type.googleapis.com/" + HttpConnectionManager.getDescriptor().getFullName())
                    .setValue(com.google.protobuf.ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xff})))))
        .build();

    assertThat(rendered(validator.validate("listener 'ingress'", listener)))
        .singleElement()
        .asString()
        .startsWith("listener 'ingress': filter_chains[0].filters[0].typed_config: cannot be decoded as "
            + "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager");
  }

  @Test
  void acceptsAConsistentSetOfResources() {
    Listener listener = socketListener(hcm().build()).build();
    RouteConfiguration routes = RouteConfiguration.newBuilder()
        .setName("web")
        .addVirtualHosts(VirtualHost.newBuilder()
            .setName("web")
            .addDomains("*")
            .addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                .setRoute(RouteAction.newBuilder().setCluster("greeter"))))
        .build();
    Cluster cluster = Cluster.newBuilder()
        .setName("greeter")
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder()
            .setEdsConfig(ConfigSource.newBuilder().setAds(AggregatedConfigSource.getDefaultInstance())))
        .setConnectTimeout(Duration.newBuilder().setSeconds(1))
        .setOutlierDetection(OutlierDetection.newBuilder().setMaxEjectionPercent(UInt32Value.of(10)))
        .build();
    ClusterLoadAssignment cla = ClusterLoadAssignment.newBuilder()
        .setClusterName("greeter")
        .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(lbEndpoint("127.0.0.1", 50051)))
        .build();

    assertThat(validator.validate("listener 'ingress'", listener)).isEmpty();
    assertThat(validator.validate("route config 'web'", routes)).isEmpty();
    assertThat(validator.validate("cluster 'greeter'", cluster)).isEmpty();
    assertThat(validator.validate("endpoints of cluster 'greeter'", cla)).isEmpty();
  }

  @Test
  void checksMapKeysRepeatedItemsAndEnumNotIn() {
    Cluster cluster = Cluster.newBuilder()
        .setName("c")
        .setMetadata(io.envoyproxy.envoy.config.core.v3.Metadata.newBuilder()
            .putFilterMetadata("", com.google.protobuf.Struct.getDefaultInstance()))
        .addHealthChecks(io.envoyproxy.envoy.config.core.v3.HealthCheck.newBuilder()
            .setTimeout(Duration.newBuilder().setSeconds(1))
            .setInterval(Duration.newBuilder().setSeconds(5))
            .setUnhealthyThreshold(UInt32Value.of(3))
            .setHealthyThreshold(UInt32Value.of(2))
            .setHttpHealthCheck(io.envoyproxy.envoy.config.core.v3.HealthCheck.HttpHealthCheck.newBuilder()
                .setPath("/healthz")
                .setMethod(io.envoyproxy.envoy.config.core.v3.RequestMethod.CONNECT)))
        .build();

    assertThat(rendered(validator.validate("cluster 'c'", cluster)))
        .containsExactly(
            "cluster 'c': health_checks[0].http_health_check.method: must not be one of [CONNECT], was CONNECT",
            "cluster 'c': metadata.filter_metadata[''] (key): must be at least 1 character(s), was 0");
  }

  @Test
  void checksEveryItemOfARepeatedScalar() {
    Listener listener = socketListener(hcm().build())
        .setFilterChains(0, socketListener(hcm().build()).getFilterChains(0).toBuilder()
            .setFilterChainMatch(io.envoyproxy.envoy.config.listener.v3.FilterChainMatch.newBuilder()
                .addSourcePorts(80)
                .addSourcePorts(0)))
        .build();

    assertThat(rendered(validator.validate("listener 'ingress'", listener)))
        .containsExactly("listener 'ingress': filter_chains[0].filter_chain_match.source_ports[1]: must be >= 1, was 0");
  }

  @Test
  void checksHeaderNamesWithEnvoysLenientRegex() {
    RouteConfiguration config = RouteConfiguration.newBuilder()
        .setName("web")
        .addVirtualHosts(VirtualHost.newBuilder()
            .setName("web")
            .addDomains("*")
            .addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder()
                    .setPrefix("/")
                    .addHeaders(io.envoyproxy.envoy.config.route.v3.HeaderMatcher.newBuilder()
                        .setName("x-bad\nname")
                        .setPresentMatch(true)))
                .setRoute(RouteAction.newBuilder().setCluster("greeter"))))
        .build();

    assertThat(rendered(validator.validate("route config 'web'", config)))
        .containsExactly(
            "route config 'web': virtual_hosts[0].routes[0].match.headers[0].name: must be an HTTP header name, was 'x-bad\nname'");
  }

  @Test
  void reportsNullResourceInsteadOfThrowing() {
    assertThat(rendered(validator.validate("cluster 'c'", null))).containsExactly("cluster 'c': resource is required");
  }
}
