package io.signalbox.validation;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which connected clients will NACK or silently ignore a setting Signalbox serves: warned per
 * resource, setting and client kind, from the translated resources (what the clients really get)
 * and {@link ClientSupport}'s table, so an operator learns it before the first NACK, not from it.
 * Pure: the fleet's client kinds are an input, counted by whoever knows the fleet.
 *
 * <p>Example: {@code cluster 'web': lbPolicy LEAST_REQUEST: 2 grpc-js clients will NACK it
 * [client.rejected] (warning)}.
 */
public final class ClientSupportRules {

  public static final String REJECTED = "client.rejected";
  public static final String IGNORED = "client.ignored";
  /** A setting a client kind is sent less of than the others, on purpose (Envoy's one drop category). */
  public static final String REDUCED = "client.reduced";

  private static final String WRR_EXTENSION = "client_side_weighted_round_robin";

  /**
   * What the clients are served: the translated resources, in any order.
   */
  public record Served(List<Cluster> clusters, List<ClusterLoadAssignment> assignments,
      List<RouteConfiguration> routeConfigs) {
    public Served {
      clusters = List.copyOf(clusters);
      assignments = List.copyOf(assignments);
      routeConfigs = List.copyOf(routeConfigs);
    }
  }

  private ClientSupportRules() {}

  /**
   * @param connected how many clients of each kind are connected; kinds absent or at 0 draw nothing
   * @return warnings in resource order (clusters, then endpoints, then route configs), each
   *     resource's settings in {@link ClientSetting} order, then kinds in {@link ClientKind} order
   */
  public static List<Violation> check(Served served, Map<ClientKind, Integer> connected) {
    List<Violation> out = new ArrayList<>();
    if (connected.values().stream().allMatch(n -> n == null || n <= 0)) {
      return out;
    }
    Map<String, Cluster> byAssignment = new HashMap<>();
    for (Cluster c : served.clusters()) {
      String eds = c.getEdsClusterConfig().getServiceName();
      byAssignment.put(eds.isEmpty() ? c.getName() : eds, c);
      Set<ClientSetting> used = EnumSet.noneOf(ClientSetting.class);
      used.add(lbPolicy(c));
      if (c.hasOutlierDetection()) {
        used.add(ClientSetting.OUTLIER_DETECTION);
      }
      warn("cluster '" + c.getName() + "'", used, connected, out);
    }
    for (ClusterLoadAssignment cla : served.assignments()) {
      Cluster cluster = byAssignment.get(cla.getClusterName());
      warn("endpoints of cluster '" + cla.getClusterName() + "'", used(cla, cluster), connected, out);
      reducedDrops(cla, connected, out);
    }
    for (RouteConfiguration config : served.routeConfigs()) {
      Set<ClientSetting> used = EnumSet.noneOf(ClientSetting.class);
      for (VirtualHost vh : config.getVirtualHostsList()) {
        for (Route route : vh.getRoutesList()) {
          if (route.getRoute().getHashPolicyCount() > 0) {
            used.add(ClientSetting.HASH_POLICIES);
          }
          if (route.getRoute().hasRetryPolicy()) {
            used.add(ClientSetting.RETRIES);
          }
          if (route.getRoute().getAutoHostRewrite().getValue()) {
            used.add(ClientSetting.AUTO_HOST_REWRITE);
          }
        }
      }
      warn("route config '" + config.getName() + "'", used, connected, out);
    }
    return out;
  }

  /**
   * Says that the clients honouring one drop category get only the largest: the shares the fleet
   * applies then differ by client kind, which an operator reading the drop would not guess.
   */
  private static void reducedDrops(ClusterLoadAssignment cla, Map<ClientKind, Integer> connected, List<Violation> out) {
    int categories = cla.getPolicy().getDropOverloadsCount();
    if (categories <= 1) {
      return;
    }
    Map<ClientKind, Integer> reduced = new LinkedHashMap<>();
    for (ClientKind kind : ClientKind.values()) {
      int n = connected.getOrDefault(kind, 0);
      if (n > 0 && ClientSupport.honoursOneDropCategory(kind)) {
        reduced.put(kind, n);
      }
    }
    if (reduced.isEmpty()) {
      return;
    }
    ClusterLoadAssignment.Policy.DropOverload kept = DropRules.largest(cla.getPolicy()).orElseThrow();
    int n = reduced.values().stream().mapToInt(Integer::intValue).sum();
    out.add(Violation.warning(REDUCED, "", "endpoints of cluster '" + cla.getClusterName() + "'",
        ClientSetting.DROP_OVERLOADS.label() + ": " + clients(reduced) + (n == 1 ? " honours" : " honour")
            + " one category: " + (n == 1 ? "it is" : "they are") + " sent '" + kept.getCategory() + "' at "
            + DropRules.percent((int) DropRules.perMillion(kept.getDropPercentage())) + "% alone, not the "
            + categories + " categories the other clients apply in order"));
  }

  static ClientSetting lbPolicy(Cluster c) {
    if (c.hasLoadBalancingPolicy()) {
      // Signalbox sends load_balancing_policy for client-side weighted round robin only.
      boolean wrr = c.getLoadBalancingPolicy().getPoliciesList().stream()
          .anyMatch(p -> p.getTypedExtensionConfig().getName().contains(WRR_EXTENSION));
      if (wrr) {
        return ClientSetting.LB_WEIGHTED_ROUND_ROBIN;
      }
    }
    return switch (c.getLbPolicy()) {
      case LEAST_REQUEST -> ClientSetting.LB_LEAST_REQUEST;
      case RING_HASH -> ClientSetting.LB_RING_HASH;
      case MAGLEV -> ClientSetting.LB_MAGLEV;
      case RANDOM -> ClientSetting.LB_RANDOM;
      default -> ClientSetting.LB_ROUND_ROBIN;
    };
  }

  /** @param cluster the cluster this assignment belongs to; null when none is served */
  private static Set<ClientSetting> used(ClusterLoadAssignment cla, Cluster cluster) {
    Set<ClientSetting> used = EnumSet.noneOf(ClientSetting.class);
    ClientSetting policy = cluster == null ? ClientSetting.LB_ROUND_ROBIN : lbPolicy(cluster);
    boolean weighsLocalities = cluster != null && cluster.getCommonLbConfig().hasLocalityWeightedLbConfig();
    Map<Integer, Integer> localityWeightByPriority = new HashMap<>();
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      if (locality.getPriority() > 0) {
        used.add(ClientSetting.PRIORITIES);
      }
      int localityWeight = locality.getLoadBalancingWeight().getValue();
      Integer other = localityWeightByPriority.putIfAbsent(locality.getPriority(), localityWeight);
      if (other != null && other != localityWeight && !weighsLocalities) {
        used.add(ClientSetting.LOCALITY_WEIGHTS);
      }
      int endpointWeight = -1;
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        int weight = e.getLoadBalancingWeight().getValue();
        if (endpointWeight >= 0 && weight != endpointWeight
            && (policy == ClientSetting.LB_ROUND_ROBIN || policy == ClientSetting.LB_LEAST_REQUEST)) {
          used.add(ClientSetting.ENDPOINT_WEIGHTS);
        }
        endpointWeight = weight;
        SocketAddress address = e.getEndpoint().getAddress().getSocketAddress();
        if (!address.getAddress().isEmpty() && !Addresses.isIp(address.getAddress())) {
          used.add(ClientSetting.DNS_ENDPOINTS);
        }
        if (e.getHealthStatus() == HealthStatus.DRAINING) {
          used.add(ClientSetting.DRAINING);
        }
        if (e.getMetadata().containsFilterMetadata("envoy.lb")) {
          used.add(ClientSetting.ENDPOINT_HASH_KEYS);
        }
        if (e.getEndpoint().getAdditionalAddressesCount() > 0) {
          used.add(ClientSetting.ADDITIONAL_ADDRESSES);
        }
        if (e.getMetadata().containsFilterMetadata(ZonePlan.METADATA)) {
          used.add(ClientSetting.ZONE_PREFERENCE);
        }
      }
    }
    if (cla.getPolicy().getDropOverloadsCount() > 0) {
      used.add(ClientSetting.DROP_OVERLOADS);
    }
    return used;
  }

  private static void warn(String label, Set<ClientSetting> used, Map<ClientKind, Integer> connected,
      List<Violation> out) {
    for (ClientSetting setting : used) {
      Map<ClientKind, Integer> rejecting = new LinkedHashMap<>();
      Map<ClientKind, Integer> ignoring = new LinkedHashMap<>();
      for (ClientKind kind : ClientKind.values()) {
        int n = connected.getOrDefault(kind, 0);
        if (n <= 0) {
          continue;
        }
        switch (ClientSupport.of(kind, setting).verdict()) {
          case REJECTED -> rejecting.put(kind, n);
          // A drain reaches clients that ignore DRAINING through their node group's drainingAs.
          case IGNORED -> {
            if (setting != ClientSetting.DRAINING) {
              ignoring.put(kind, n);
            }
          }
          default -> { }
        }
      }
      if (!rejecting.isEmpty()) {
        out.add(Violation.warning(REJECTED, "", label,
            setting.label() + ": " + clients(rejecting) + " will NACK " + it(setting)));
      }
      if (!ignoring.isEmpty()) {
        out.add(Violation.warning(IGNORED, "", label,
            setting.label() + ": " + clients(ignoring) + " will ignore " + it(setting) + " ("
                + reasons(setting, ignoring) + ")"));
      }
    }
  }

  private static String it(ClientSetting setting) {
    return switch (setting) {
      case ENDPOINT_WEIGHTS, LOCALITY_WEIGHTS, DROP_OVERLOADS, DNS_ENDPOINTS, PRIORITIES, DRAINING, ENDPOINT_HASH_KEYS,
          ADDITIONAL_ADDRESSES ->
          "them";
      default -> "it";
    };
  }

  /** {@code 2 grpc-js clients and 1 armeria client}. */
  private static String clients(Map<ClientKind, Integer> counts) {
    List<String> parts = new ArrayList<>();
    counts.forEach((kind, n) -> parts.add(n + " " + kind.label() + (n == 1 ? " client" : " clients")));
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
  }

  /** {@code armeria: falls back to round robin, no NACK}; one per kind. */
  private static String reasons(ClientSetting setting, Map<ClientKind, Integer> counts) {
    List<String> parts = new ArrayList<>();
    for (ClientKind kind : counts.keySet()) {
      parts.add(kind.label() + ": " + ClientSupport.of(kind, setting).note());
    }
    return String.join("; ", parts);
  }
}
