package io.signalbox.controlplane.reconcile;

import io.signalbox.model.EndpointField;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.SortedNames;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Unions the endpoints of every source per cluster. The same address:port from two sources with
 * the same attributes is one endpoint; with different attributes it is a conflict, reported as a
 * violation rather than silently resolved.
 *
 * <p>An instance remembers each cluster's inputs and result: a cluster whose sources report the
 * same lists as last time (the same instances, or equal ones) gets the same result list instance
 * back without being merged again, so one changed endpoint costs one cluster's merge, and the stages
 * after it can tell unchanged clusters by identity. Confined to the reconciler's thread.
 */
final class EndpointMerge {

  record Result(Map<String, List<EndpointSpec>> endpoints, List<Violation> conflicts) {}

  /** One source's list for one cluster. */
  private record Input(String sourceId, List<EndpointSpec> endpoints) {}

  /** A conflict found while merging one cluster, with the source whose endpoint raised it. */
  private record Found(String sourceId, Violation violation) {}

  private record Merged(List<Input> inputs, List<EndpointSpec> endpoints, List<Found> conflicts) {}

  // What each cluster was merged from and to, by name, as of the last update: name-ordered arrays
  // walked in step with the (name-ordered) sources, not a hash map probed 10,000 times an epoch.
  private String[] names = new String[0];
  private Merged[] merged = new Merged[0];
  // What the last update returned, updated in place: rebuilding a 10,000-entry tree costs milliseconds.
  private final TreeMap<String, List<EndpointSpec>> served = new TreeMap<>();
  private List<String> precedence = List.of();

  static Result merge(Collection<SourceState> sources) {
    return merge(sources, List.of());
  }

  /**
   * @param precedence source kinds, strongest first (the part of a source id before ':', e.g.
   *     {@code file}); when both sources of a conflict are ranked, the stronger one's endpoint is
   *     kept and the conflict is a warning
   */
  static Result merge(Collection<SourceState> sources, List<String> precedence) {
    return new EndpointMerge().update(sources, precedence);
  }

  /** {@link #merge}, re-merging only the clusters whose inputs changed since the last call. */
  Result update(Collection<SourceState> sources, List<String> precedence) {
    if (!precedence.equals(this.precedence)) {
      names = new String[0];
      merged = new Merged[0];
      this.precedence = List.copyOf(precedence);
    }
    List<SourceState> sorted = sources.stream().sorted(Comparator.comparing(SourceState::sourceId)).toList();
    Pass pass = new Pass();
    if (sorted.size() == 1) {
      // One source (the usual deployment): compare its lists with what each cluster was merged from
      // without wrapping every one of them first.
      SourceState only = sorted.get(0);
      only.endpoints().forEach((cluster, list) -> pass.cluster(cluster, only.sourceId(), list, null));
    } else {
      byClusterOf(sorted, (cluster, in) -> pass.cluster(cluster, null, null, in));
    }
    if (!pass.sameClusters || pass.previous.hasNext()) {
      // Clusters came or went: rebuild what is served (rare; otherwise it is updated in place).
      served.clear();
      for (int i = 0; i < pass.count; i++) {
        served.put(pass.names[i], pass.merged[i].endpoints());
      }
    }
    names = pass.count == pass.names.length ? pass.names : Arrays.copyOf(pass.names, pass.count);
    merged = pass.count == pass.merged.length ? pass.merged : Arrays.copyOf(pass.merged, pass.count);
    // A copy of a sorted map is built in one pass; the caller may keep it while this one changes.
    return new Result(new TreeMap<>(served), conflicts(sorted, pass.withConflicts));
  }

  /** One update's walk over the clusters, in name order. */
  private final class Pass {
    final Iterator<Map.Entry<String, List<EndpointSpec>>> previous = served.entrySet().iterator();
    boolean sameClusters = true;
    String[] names = new String[EndpointMerge.this.names.length];
    Merged[] merged = new Merged[EndpointMerge.this.names.length];
    int count;
    final List<String> withConflicts = new ArrayList<>();

    /**
     * @param sourceId with {@code list}: the only source's list for the cluster; else null, and
     *     {@code inputs} has every source's
     */
    void cluster(String cluster, String sourceId, List<EndpointSpec> list, List<Input> inputs) {
      Merged m = remembered(count, cluster);
      boolean same = m != null
          && (inputs == null ? sameSingle(m.inputs(), sourceId, list) : sameInputs(m.inputs(), inputs));
      if (!same) {
        List<Input> in = inputs == null ? List.of(new Input(sourceId, list)) : inputs;
        Merged fresh = mergeCluster(cluster, in);
        // A changed input that merges to the same list keeps the old instance: nothing downstream changed.
        m = m != null && m.endpoints().equals(fresh.endpoints())
            ? new Merged(in, m.endpoints(), fresh.conflicts()) : fresh;
      }
      if (!m.conflicts().isEmpty()) {
        withConflicts.add(cluster);
      }
      if (count == names.length) {
        names = Arrays.copyOf(names, Math.max(16, 2 * count));
        merged = Arrays.copyOf(merged, names.length);
      }
      names[count] = cluster;
      merged[count] = m;
      count++;
      if (sameClusters && previous.hasNext()) {
        Map.Entry<String, List<EndpointSpec>> entry = previous.next();
        if (entry.getKey().equals(cluster)) {
          if (entry.getValue() != m.endpoints()) {
            entry.setValue(m.endpoints());
          }
          return;
        }
      }
      sameClusters = false;
    }
  }

  /** The last update's merge of {@code cluster}, which is usually the {@code index}-th cluster again. */
  private Merged remembered(int index, String cluster) {
    int at = SortedNames.indexOf(names, index, cluster);
    return at >= 0 ? merged[at] : null;
  }

  @FunctionalInterface
  private interface ClusterInputs {
    void accept(String cluster, List<Input> inputs);
  }

  /**
   * Every cluster any source reports, in name order, with each source's list for it (sources by
   * id): one pass over the sources' maps, which {@link SourceState} keeps sorted by cluster name.
   * A single source takes {@link #update}'s shorter path.
   */
  private static void byClusterOf(List<SourceState> sorted, ClusterInputs action) {
    List<Iterator<Map.Entry<String, List<EndpointSpec>>>> iterators = new ArrayList<>();
    List<Map.Entry<String, List<EndpointSpec>>> heads = new ArrayList<>();
    for (SourceState source : sorted) {
      Iterator<Map.Entry<String, List<EndpointSpec>>> it = source.endpoints().entrySet().iterator();
      iterators.add(it);
      heads.add(it.hasNext() ? it.next() : null);
    }
    while (true) {
      String cluster = null;
      for (Map.Entry<String, List<EndpointSpec>> head : heads) {
        if (head != null && (cluster == null || head.getKey().compareTo(cluster) < 0)) {
          cluster = head.getKey();
        }
      }
      if (cluster == null) {
        return;
      }
      List<Input> inputs = new ArrayList<>(2);
      for (int i = 0; i < heads.size(); i++) {
        Map.Entry<String, List<EndpointSpec>> head = heads.get(i);
        if (head != null && head.getKey().equals(cluster)) {
          inputs.add(new Input(sorted.get(i).sourceId(), head.getValue()));
          heads.set(i, iterators.get(i).hasNext() ? iterators.get(i).next() : null);
        }
      }
      action.accept(cluster, inputs);
    }
  }

  /**
   * Conflicts in the order a single pass over the sources (by id), their clusters and endpoints
   * finds them, whichever clusters were merged this time.
   */
  private List<Violation> conflicts(List<SourceState> sorted, List<String> clusters) {
    if (clusters.isEmpty()) {
      return new ArrayList<>();
    }
    List<Violation> out = new ArrayList<>();
    for (SourceState source : sorted) {
      for (String cluster : clusters) {
        for (Found f : merged[Arrays.binarySearch(names, cluster)].conflicts()) {
          if (f.sourceId().equals(source.sourceId())) {
            out.add(f.violation());
          }
        }
      }
    }
    return out;
  }

  private static boolean sameSingle(List<Input> a, String sourceId, List<EndpointSpec> list) {
    if (a.size() != 1) {
      return false;
    }
    Input x = a.get(0);
    return x.sourceId().equals(sourceId) && (x.endpoints() == list || x.endpoints().equals(list));
  }

  private static boolean sameInputs(List<Input> a, List<Input> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Input x = a.get(i);
      Input y = b.get(i);
      if (!x.sourceId().equals(y.sourceId())
          || (x.endpoints() != y.endpoints() && !x.endpoints().equals(y.endpoints()))) {
        return false;
      }
    }
    return true;
  }

  private Merged mergeCluster(String cluster, List<Input> inputs) {
    Map<String, EndpointSpec> known = new LinkedHashMap<>();
    List<Found> conflicts = new ArrayList<>();
    for (Input input : inputs) {
      for (EndpointSpec e : input.endpoints()) {
        EndpointSpec existing = known.putIfAbsent(e.key(), e);
        if (existing != null && existing != e && !EndpointField.sameAttributes(existing, e) && existing.origin() != null
            && !existing.origin().equals(e.origin())) {
          int rankExisting = rank(precedence, existing.origin());
          int rankNew = rank(precedence, e.origin());
          if (rankExisting >= 0 && rankNew >= 0 && rankExisting != rankNew) {
            EndpointSpec winner = rankNew < rankExisting ? e : existing;
            known.put(e.key(), winner);
            conflicts.add(new Found(input.sourceId(), Violation.warning("source.precedence", e.origin(),
                "endpoints of cluster '" + cluster + "' (" + e.key() + ")",
                "reported differently by " + existing.origin() + " and " + e.origin() + "; "
                    + winner.origin() + " wins by sources.precedence")));
            continue;
          }
          conflicts.add(new Found(input.sourceId(), Violation.error("source.conflict", e.origin(),
              "endpoints of cluster '" + cluster + "' (" + e.key() + ")",
              "also reported by " + existing.origin() + " with different attributes ("
                  + EndpointField.describe(existing) + " vs " + EndpointField.describe(e) + ")")));
        }
      }
    }
    return new Merged(inputs, List.copyOf(known.values()), List.copyOf(conflicts));
  }

  private static int rank(List<String> precedence, String origin) {
    int colon = origin.indexOf(':');
    return precedence.indexOf(colon < 0 ? origin : origin.substring(0, colon));
  }

}
