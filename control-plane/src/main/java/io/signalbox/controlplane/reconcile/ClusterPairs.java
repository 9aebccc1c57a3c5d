package io.signalbox.controlplane.reconcile;

import java.util.Iterator;
import java.util.Map;

/**
 * Walks two maps keyed by cluster name side by side. The writer's maps (source states, merged and
 * lifecycle endpoints, snapshots) are sorted the same way and usually hold the same clusters, so
 * pairing them is one step per cluster; a lookup per cluster in a 10,000-entry tree costs more than
 * everything else an unchanged cluster costs. Once the keys stop lining up (a cluster added or
 * removed, or maps ordered differently) it looks the rest up instead, so the result never depends
 * on the order.
 */
final class ClusterPairs {
  private ClusterPairs() {}

  @FunctionalInterface
  interface Visitor<A, B> {
    void visit(String cluster, A left, B right);
  }

  /**
   * Visits every entry of {@code left}, in its order, with {@code right}'s value for the same key
   * (null when it has none).
   *
   * @return how many keys of {@code left} {@code right} has too
   */
  static <A, B> int forEach(Map<String, A> left, Map<String, B> right, Visitor<A, B> visitor) {
    Iterator<Map.Entry<String, B>> others = right.entrySet().iterator();
    boolean inStep = true;
    int shared = 0;
    for (Map.Entry<String, A> entry : left.entrySet()) {
      String cluster = entry.getKey();
      B other = null;
      if (inStep && others.hasNext()) {
        Map.Entry<String, B> next = others.next();
        if (next.getKey().equals(cluster)) {
          other = next.getValue();
        } else {
          inStep = false;
        }
      } else {
        inStep = false;
      }
      if (!inStep) {
        other = right.get(cluster);
      }
      if (other != null) {
        shared++;
      }
      visitor.visit(cluster, entry.getValue(), other);
    }
    return shared;
  }
}
