package io.signalbox.controlplane.xds;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds small hand-written snapshots for xDS tests, independent of the translator: a listener,
 * a route config naming some clusters, and clusters with one endpoint port each.
 */
final class TestResources {

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private Snapshot last;
  private long nextEpoch = 1;

  /** clusters: name -> endpoint ports on 127.0.0.1; routed: clusters the route config names. */
  Snapshot publishable(Map<String, List<Integer>> clusters, List<String> routed) {
    List<TranslatedResource> resources = new ArrayList<>();
    resources.add(new TranslatedResource(XdsType.LISTENER, "app", listener("app", "app-routes"), Set.of("app-routes")));
    resources.add(new TranslatedResource(XdsType.ROUTE, "app-routes", routes("app-routes", routed), Set.copyOf(routed)));
    clusters.forEach((name, ports) -> {
      resources.add(new TranslatedResource(XdsType.CLUSTER, name, cluster(name), Set.of(name)));
      resources.add(new TranslatedResource(XdsType.ENDPOINT, name, cla(name, ports), Set.of()));
    });
    Snapshot s = builder.candidate(resources, Map.of(), last, Provenance.newBuilder().setCause("test").build())
        .seal(nextEpoch++, Instant.EPOCH);
    last = s;
    return s;
  }

  Snapshot with(Object... clusterPorts) {
    Map<String, List<Integer>> clusters = new LinkedHashMap<>();
    for (int i = 0; i < clusterPorts.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<Integer> ports = (List<Integer>) clusterPorts[i + 1];
      clusters.put((String) clusterPorts[i], ports);
    }
    return publishable(clusters, List.copyOf(clusters.keySet()));
  }

  static Listener listener(String name, String routeConfig) {
    HttpConnectionManager hcm = HttpConnectionManager.newBuilder()
        .setStatPrefix(name)
        .setRds(Rds.newBuilder().setRouteConfigName(routeConfig).setConfigSource(ads()))
        .build();
    return Listener.newBuilder().setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm))).build();
  }

  static RouteConfiguration routes(String name, List<String> clusters) {
    VirtualHost.Builder vh = VirtualHost.newBuilder().setName("all").addDomains("*");
    for (String c : clusters) {
      vh.addRoutes(Route.newBuilder()
          .setMatch(RouteMatch.newBuilder().setPrefix("/" + c))
          .setRoute(RouteAction.newBuilder().setCluster(c)));
    }
    return RouteConfiguration.newBuilder().setName(name).addVirtualHosts(vh).build();
  }

  static Cluster cluster(String name) {
    return Cluster.newBuilder().setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ads()).setServiceName(name))
        .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(1))
        .build();
  }

  static ClusterLoadAssignment cla(String name, List<Integer> ports) {
    LocalityLbEndpoints.Builder locality = LocalityLbEndpoints.newBuilder()
        .setLoadBalancingWeight(com.google.protobuf.UInt32Value.of(Math.max(1, ports.size())));
    for (int port : ports) {
      locality.addLbEndpoints(LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(
          Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port)))));
    }
    return ClusterLoadAssignment.newBuilder().setClusterName(name).addEndpoints(locality).build();
  }

  private static ConfigSource ads() {
    return ConfigSource.newBuilder().setAds(AggregatedConfigSource.getDefaultInstance())
        .setResourceApiVersion(ApiVersion.V3).build();
  }
}
