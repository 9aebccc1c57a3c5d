package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.duration;
import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.signalbox.model.HashPolicySpec;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.util.Set;
import java.util.TreeSet;

/** {@link RouteConfigSpec} to a {@link RouteConfiguration}, keeping the declared order of hosts and routes. */
final class RouteTranslator {

  private RouteTranslator() {}

  static RouteConfiguration toRouteConfiguration(RouteConfigSpec spec) {
    RouteConfiguration.Builder config = RouteConfiguration.newBuilder().setName(spec.name());
    for (VirtualHostSpec vh : spec.virtualHosts()) {
      VirtualHost.Builder host = VirtualHost.newBuilder().setName(vh.name()).addAllDomains(vh.domains());
      for (RouteSpec route : vh.routes()) {
        host.addRoutes(route(route));
      }
      config.addVirtualHosts(host);
    }
    return config.build();
  }

  /** Every cluster the config's routes name, weighted ones included. */
  static Set<String> referencedClusters(RouteConfigSpec spec) {
    Set<String> clusters = new TreeSet<>();
    for (VirtualHostSpec vh : spec.virtualHosts()) {
      for (RouteSpec route : vh.routes()) {
        if (route.cluster() != null) {
          clusters.add(route.cluster());
        }
        for (WeightedClusterSpec wc : route.weightedClusters()) {
          if (wc.name() != null) {
            clusters.add(wc.name());
          }
        }
      }
    }
    return clusters;
  }

  private static Route route(RouteSpec spec) {
    RouteAction.Builder action = RouteAction.newBuilder();
    // cluster_specifier is a oneof: a route names one cluster or a weighted set, never both. The
    // validator enforces "exactly one"; should both arrive anyway, the single cluster wins.
    if (spec.cluster() != null) {
      action.setCluster(spec.cluster());
    } else {
      WeightedCluster.Builder weighted = WeightedCluster.newBuilder();
      for (WeightedClusterSpec wc : spec.weightedClusters()) {
        weighted.addClusters(
            WeightedCluster.ClusterWeight.newBuilder().setName(wc.name()).setWeight(uint32(wc.weight())));
      }
      action.setWeightedClusters(weighted);
    }
    if (spec.timeout() != null) {
      action.setTimeout(duration(spec.timeout()));
    }
    for (HashPolicySpec policy : spec.hashPolicy()) {
      RoutePolicyTranslator.hashPolicy(policy).ifPresent(action::addHashPolicy);
    }
    if (spec.retryPolicy() != null) {
      action.setRetryPolicy(RoutePolicyTranslator.retryPolicy(spec.retryPolicy()));
    }
    if (Boolean.TRUE.equals(spec.autoHostRewrite())) {
      // Sent to every client: the trust is the client's to decide (gRFC A81: grpc-java applies it
      // only from a server its bootstrap marks trusted_xds_server); Envoy uses Endpoint.hostname.
      action.setAutoHostRewrite(com.google.protobuf.BoolValue.of(true));
    }
    return Route.newBuilder().setMatch(match(spec.match())).setRoute(action).build();
  }

  private static RouteMatch match(RouteMatchSpec spec) {
    RouteMatch.Builder match = RouteMatch.newBuilder();
    if (spec == null) {
      return match.setPrefix("").build();
    }
    if (spec.path() != null) {
      match.setPath(spec.path());
    } else {
      match.setPrefix(spec.prefix() == null ? "" : spec.prefix());
    }
    for (HeaderMatchSpec header : spec.headers()) {
      match.addHeaders(headerMatcher(header));
    }
    return match.build();
  }

  private static HeaderMatcher headerMatcher(HeaderMatchSpec spec) {
    HeaderMatcher.Builder header = HeaderMatcher.newBuilder().setName(spec.name());
    // string_match, not the deprecated exact_match/prefix_match fields: grpc-xds and current Envoy
    // read both, but the deprecated ones are slated for removal.
    if (spec.exact() != null) {
      header.setStringMatch(StringMatcher.newBuilder().setExact(spec.exact()));
    } else if (spec.prefix() != null) {
      header.setStringMatch(StringMatcher.newBuilder().setPrefix(spec.prefix()));
    } else {
      header.setPresentMatch(spec.present() == null || spec.present());
    }
    return header.build();
  }
}
