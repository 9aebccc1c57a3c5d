package io.signalbox.controlplane.reconcile;

import io.signalbox.model.EndpointSpec;
import io.signalbox.validation.Guards;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link Guards#check} one cluster at a time, remembering each cluster's inputs and verdict: a
 * cluster whose endpoints before and after, configuration and operator intent are what they were
 * at the last check (the same list instances, or equal ones) gets the same verdict without being
 * checked again. The guards judge each cluster on its own, so checking only the changed ones gives
 * what checking all would. Confined to the reconciler's thread.
 */
final class GuardChecks {

  private record Checked(List<EndpointSpec> before, List<EndpointSpec> after, DesiredStateTemplate config,
      Set<String> intended, List<Guards.Hold> holds) {}

  private final Map<String, Checked> byCluster = new HashMap<>();

  /**
   * @param intended cluster -> the endpoint keys ({@code cluster/address:port}) an operator changed
   *     on purpose there
   * @return the holds of every cluster of {@code before} or {@code after}, by cluster name
   */
  List<Guards.Hold> check(Map<String, List<EndpointSpec>> before, Map<String, List<EndpointSpec>> after,
      ClusterSpecs clusters, Map<String, Set<String>> intended) {
    List<Guards.Hold> holds = new ArrayList<>();
    int shared = ClusterPairs.forEach(after, before, (cluster, will, was) ->
        holds.addAll(check(cluster, was == null ? List.of() : was, will, clusters, intended)));
    int seen = after.size();
    if (shared < before.size()) {
      for (var entry : before.entrySet()) {
        if (!after.containsKey(entry.getKey())) {
          seen++;
          holds.addAll(check(entry.getKey(), entry.getValue(), List.of(), clusters, intended));
        }
      }
    }
    if (byCluster.size() > seen) {
      byCluster.keySet().removeIf(c -> !after.containsKey(c) && !before.containsKey(c));
    }
    holds.sort(Comparator.comparing(Guards.Hold::cluster));
    return holds;
  }

  private List<Guards.Hold> check(String cluster, List<EndpointSpec> was, List<EndpointSpec> will,
      ClusterSpecs clusters, Map<String, Set<String>> intended) {
    Set<String> meant = intended.getOrDefault(cluster, Set.of());
    Checked c = byCluster.get(cluster);
    if (c != null && c.config() == clusters.template() && same(c.before(), was) && same(c.after(), will)
        && c.intended().equals(meant)) {
      return c.holds();
    }
    List<Guards.Hold> holds = List.copyOf(Guards.check(Map.of(cluster, was), Map.of(cluster, will), clusters::get,
        meant));
    byCluster.put(cluster, new Checked(was, will, clusters.template(), Set.copyOf(meant), holds));
    return holds;
  }

  private static boolean same(List<EndpointSpec> a, List<EndpointSpec> b) {
    return a == b || a.equals(b);
  }
}
