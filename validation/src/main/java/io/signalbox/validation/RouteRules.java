package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.HeaderMatchSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/** Route configs, virtual hosts, routes, and route -> cluster references. */
final class RouteRules {

  static final int MAX_WEIGHT = 10_000;

  private RouteRules() {}

  static void check(DesiredState state, Set<String> knownClusters, Map<String, ClusterSpec> declared, Findings f) {
    String src = state.configSource();
    Set<String> servedToGrpc = RoutePolicyRules.servedToGrpc(state.listeners());
    List<RouteConfigSpec> configs = state.routeConfigs();
    f.uniqueNames(src, "route config", "routeConfigs", configs.stream().map(c -> c == null ? null : c.name()).toList());
    Set<String> used = new HashSet<>();
    for (ListenerSpec listener : state.listeners()) {
      if (listener != null && listener.routeConfig() != null) {
        used.add(listener.routeConfig());
      }
    }
    for (int i = 0; i < configs.size(); i++) {
      RouteConfigSpec config = configs.get(i);
      if (config == null) {
        f.error(Findings.REQUIRED, src, "routeConfigs[" + i + "]", "must not be null");
        continue;
      }
      String label = Labels.of("route config", "routeConfigs", config.name(), i);
      if (f.name(src, Labels.field(label, "name"), config.name()) && !used.contains(config.name())) {
        f.warning("unused.route-config", src, label, "is not used by any listener");
      }
      Destinations to = new Destinations(knownClusters, declared, servedToGrpc.contains(config.name()));
      checkVirtualHosts(src, label, config.virtualHosts(), to, f);
    }
  }

  /**
   * What a route config's routes may name, and how its clients read it.
   *
   * @param servedToGrpc an API listener (grpc-xds) uses the route config
   */
  private record Destinations(Set<String> known, Map<String, ClusterSpec> declared, boolean servedToGrpc) {}

  private static void checkVirtualHosts(
      String src, String label, List<VirtualHostSpec> hosts, Destinations to, Findings f) {
    // Envoy rejects a route config whose virtual hosts share a domain: the match would be ambiguous.
    Map<String, String> domainAt = new HashMap<>();
    for (int h = 0; h < hosts.size(); h++) {
      VirtualHostSpec host = hosts.get(h);
      String hostPath = "virtualHosts[" + h + "]";
      if (host == null) {
        f.error(Findings.REQUIRED, src, Labels.field(label, hostPath), "must not be null");
        continue;
      }
      f.name(src, Labels.field(label, hostPath + ".name"), host.name());
      if (host.domains().isEmpty()) {
        f.error(Findings.REQUIRED, src, Labels.field(label, hostPath + ".domains"), "must have at least 1 domain");
      }
      for (int d = 0; d < host.domains().size(); d++) {
        String domain = host.domains().get(d);
        String domainPath = hostPath + ".domains[" + d + "]";
        if (domain == null || domain.isBlank()) {
          f.error(Findings.REQUIRED, src, Labels.field(label, domainPath), "must not be blank");
          continue;
        }
        String previous = domainAt.putIfAbsent(domain.toLowerCase(Locale.ROOT), domainPath);
        if (previous != null) {
          f.error(
              "duplicate.domain",
              src,
              Labels.field(label, domainPath),
              "duplicate domain '" + domain + "' (also at " + previous + ")");
        }
      }
      for (int r = 0; r < host.routes().size(); r++) {
        checkRoute(src, label, hostPath + ".routes[" + r + "]", host.routes().get(r), to, f);
      }
    }
  }

  private static void checkRoute(
      String src, String label, String path, RouteSpec route, Destinations to, Findings f) {
    Set<String> knownClusters = to.known();
    if (route == null) {
      f.error(Findings.REQUIRED, src, Labels.field(label, path), "must not be null");
      return;
    }
    checkMatch(src, label, path + ".match", route.match(), f);
    boolean hasCluster = route.cluster() != null;
    boolean hasWeighted = !route.weightedClusters().isEmpty();
    if (hasCluster == hasWeighted) {
      f.error(
          "route.destination",
          src,
          Labels.field(label, path),
          "must set exactly one of cluster or weightedClusters, " + (hasCluster ? "both are set" : "neither is set"));
    }
    if (hasCluster) {
      checkClusterRef(src, Labels.field(label, path + ".cluster"), route.cluster(), knownClusters, f);
    }
    long sum = 0;
    List<WeightedClusterSpec> weighted = route.weightedClusters();
    for (int w = 0; w < weighted.size(); w++) {
      WeightedClusterSpec wc = weighted.get(w);
      String wPath = path + ".weightedClusters[" + w + "]";
      if (wc == null) {
        f.error(Findings.REQUIRED, src, Labels.field(label, wPath), "must not be null");
        continue;
      }
      checkClusterRef(src, Labels.field(label, wPath + ".name"), wc.name(), knownClusters, f);
      f.range(src, Labels.field(label, wPath + ".weight"), wc.weight(), 1, MAX_WEIGHT);
      sum += Math.max(0, wc.weight());
    }
    if (hasWeighted && sum <= 0) {
      f.error(
          "route.destination", src, Labels.field(label, path + ".weightedClusters"), "weights must sum to more than 0, was " + sum);
    }
    f.nonNegative(src, Labels.field(label, path + ".timeout"), route.timeout());
    RoutePolicyRules.check(src, label, path, route, to.declared(), to.servedToGrpc(), f);
  }

  private static void checkClusterRef(String src, String path, String cluster, Set<String> known, Findings f) {
    if (cluster == null) {
      f.error(Findings.REQUIRED, src, path, "is required");
    } else if (cluster.isBlank()) {
      f.error(Findings.REQUIRED, src, path, "must not be blank");
    } else if (!known.contains(cluster)) {
      f.error("reference.cluster", src, path, "names unknown cluster '" + cluster + "'");
    }
  }

  private static void checkMatch(String src, String label, String path, RouteMatchSpec match, Findings f) {
    if (match == null) {
      f.error(Findings.REQUIRED, src, Labels.field(label, path), "is required");
      return;
    }
    boolean hasPrefix = match.prefix() != null;
    boolean hasPath = match.path() != null;
    if (hasPrefix == hasPath) {
      f.error(
          "route.match",
          src,
          Labels.field(label, path),
          "must set exactly one of prefix or path, " + (hasPrefix ? "both are set" : "neither is set"));
    }
    if (hasPrefix && !match.prefix().isEmpty() && !match.prefix().startsWith("/")) {
      f.error(
          "route.match", src, Labels.field(label, path + ".prefix"), "must be empty or start with '/', was " + Findings.quote(match.prefix()));
    }
    if (hasPath && !match.path().startsWith("/")) {
      f.error("route.match", src, Labels.field(label, path + ".path"), "must start with '/', was " + Findings.quote(match.path()));
    }
    List<HeaderMatchSpec> headers = match.headers();
    for (int i = 0; i < headers.size(); i++) {
      HeaderMatchSpec header = headers.get(i);
      String hPath = path + ".headers[" + i + "]";
      if (header == null) {
        f.error(Findings.REQUIRED, src, Labels.field(label, hPath), "must not be null");
        continue;
      }
      if (header.name() == null || header.name().isBlank()) {
        f.error(Findings.REQUIRED, src, Labels.field(label, hPath + ".name"), header.name() == null ? "is required" : "must not be blank");
      }
      long set = Stream.of(header.exact(), header.prefix(), header.present()).filter(Objects::nonNull).count();
      if (set != 1) {
        f.error(
            "header.match",
            src,
            Labels.field(label, hPath),
            "must set exactly one of exact, prefix or present, " + (set == 0 ? "none is set" : set + " are set"));
      }
    }
  }
}
