package io.signalbox.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything Signalbox should serve, before validation: the operator's listeners, route configs and
 * clusters (defaults already applied), and the merged endpoints of every cluster.
 *
 * @param configSource the config file's path, used to say where a violation is
 * @param endpoints cluster name -> endpoints, sorted by cluster name
 */
public record DesiredState(
    String configSource,
    List<ListenerSpec> listeners,
    List<RouteConfigSpec> routeConfigs,
    List<ClusterSpec> clusters,
    Map<String, List<EndpointSpec>> endpoints) {

  public DesiredState {
    configSource = configSource == null ? "" : configSource;
    listeners = listeners == null ? List.of() : List.copyOf(listeners);
    routeConfigs = routeConfigs == null ? List.of() : List.copyOf(routeConfigs);
    clusters = clusters == null ? List.of() : List.copyOf(clusters);
    TreeMap<String, List<EndpointSpec>> copy;
    if (endpoints instanceof SortedMap<String, List<EndpointSpec>> sorted && sorted.comparator() == null) {
      // Linear (TreeMap builds from sorted input without comparing); one put per entry was
      // n log n string comparisons per epoch at 10,000 clusters.
      copy = new TreeMap<>(sorted);
    } else {
      copy = new TreeMap<>();
      if (endpoints != null) {
        copy.putAll(endpoints);
      }
    }
    // List.copyOf returns an already immutable list itself: unchanged clusters keep their instance.
    copy.replaceAll((cluster, list) -> List.copyOf(list));
    endpoints = Collections.unmodifiableSortedMap(copy);
  }

  /** The same state with {@code cluster}'s endpoints replaced. */
  public DesiredState withEndpoints(String cluster, List<EndpointSpec> clusterEndpoints) {
    Map<String, List<EndpointSpec>> copy = new LinkedHashMap<>(endpoints);
    copy.put(cluster, new ArrayList<>(clusterEndpoints));
    return new DesiredState(configSource, listeners, routeConfigs, clusters, copy);
  }

  public List<EndpointSpec> endpointsOf(String cluster) {
    return endpoints.getOrDefault(cluster, List.of());
  }
}
