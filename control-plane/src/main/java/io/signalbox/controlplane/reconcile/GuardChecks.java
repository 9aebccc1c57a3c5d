package io.signalbox.controlplane.reconcile;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.SortedNames;
import io.signalbox.validation.Guards;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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

  // Each cluster's last check, by name, in name order: found in step with the name-ordered maps
  // (a binary search otherwise), not by probing a 10,000-entry hash map on every epoch.
  private String[] names = new String[0];
  private Checked[] checks = new Checked[0];

  /**
   * @param intended cluster -> the endpoint keys ({@code cluster/address:port}) an operator changed
   *     on purpose there
   * @return the holds of every cluster of {@code before} or {@code after}, by cluster name
   */
  List<Guards.Hold> check(Map<String, List<EndpointSpec>> before, Map<String, List<EndpointSpec>> after,
      ClusterSpecs clusters, Map<String, Set<String>> intended) {
    Pass pass = new Pass(Math.max(after.size(), before.size()), clusters, intended);
    int shared = ClusterPairs.forEach(after, before, (cluster, will, was) ->
        pass.check(cluster, was == null ? List.of() : was, will));
    if (shared < before.size()) {
      for (var entry : before.entrySet()) {
        if (!after.containsKey(entry.getKey())) {
          pass.check(entry.getKey(), entry.getValue(), List.of());
        }
      }
    }
    pass.remember();
    pass.holds.sort(Comparator.comparing(Guards.Hold::cluster));
    return pass.holds;
  }

  /** One call's checks, remembered for the next call once all are done. */
  private final class Pass {
    final ClusterSpecs clusters;
    final Map<String, Set<String>> intended;
    final List<Guards.Hold> holds = new ArrayList<>();
    String[] checkedNames;
    Checked[] checked;
    int count;
    boolean inOrder = true;

    Pass(int capacity, ClusterSpecs clusters, Map<String, Set<String>> intended) {
      this.clusters = clusters;
      this.intended = intended;
      checkedNames = new String[capacity];
      checked = new Checked[capacity];
    }

    void check(String cluster, List<EndpointSpec> was, List<EndpointSpec> will) {
      Set<String> meant = intended.getOrDefault(cluster, Set.of());
      Checked c = last(count, cluster);
      if (c == null || c.config() != clusters.template() || !same(c.before(), was) || !same(c.after(), will)
          || !c.intended().equals(meant)) {
        List<Guards.Hold> found = List.copyOf(Guards.check(Map.of(cluster, was), Map.of(cluster, will),
            clusters::get, meant));
        c = new Checked(was, will, clusters.template(), Set.copyOf(meant), found);
      }
      holds.addAll(c.holds());
      if (count == checkedNames.length) {
        checkedNames = Arrays.copyOf(checkedNames, Math.max(16, 2 * count));
        checked = Arrays.copyOf(checked, checkedNames.length);
      }
      inOrder &= count == 0 || checkedNames[count - 1].compareTo(cluster) < 0;
      checkedNames[count] = cluster;
      checked[count] = c;
      count++;
    }

    /** Keeps this call's checks, and only those: clusters in neither map are forgotten. */
    void remember() {
      String[] n = Arrays.copyOf(checkedNames, count);
      Checked[] c = Arrays.copyOf(checked, count);
      if (!inOrder) {
        // Clusters only clients still hold come after the others: sort all by name (rare).
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
          order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing(i -> checkedNames[i]));
        for (int i = 0; i < count; i++) {
          n[i] = checkedNames[order[i]];
          c[i] = checked[order[i]];
        }
      }
      names = n;
      checks = c;
    }
  }

  /** The last check of {@code cluster}, which is usually the {@code index}-th cluster again. */
  private Checked last(int index, String cluster) {
    int at = SortedNames.indexOf(names, index, cluster);
    return at >= 0 ? checks[at] : null;
  }

  private static boolean same(List<EndpointSpec> a, List<EndpointSpec> b) {
    return a == b || a.equals(b);
  }
}
