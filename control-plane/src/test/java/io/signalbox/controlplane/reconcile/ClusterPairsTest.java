package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Pairing two cluster maps gives what a lookup per key gives, whether or not their keys line up. */
class ClusterPairsTest {

  private static List<String> pairs(Map<String, Integer> left, Map<String, String> right, int[] shared) {
    List<String> seen = new ArrayList<>();
    shared[0] = ClusterPairs.forEach(left, right, (cluster, l, r) -> seen.add(cluster + "=" + l + "/" + r));
    return seen;
  }

  private static TreeMap<String, Integer> left(String... keys) {
    TreeMap<String, Integer> m = new TreeMap<>();
    for (int i = 0; i < keys.length; i++) {
      m.put(keys[i], i);
    }
    return m;
  }

  private static TreeMap<String, String> right(String... keys) {
    TreeMap<String, String> m = new TreeMap<>();
    for (String k : keys) {
      m.put(k, k.toUpperCase());
    }
    return m;
  }

  @Test
  void sameKeysPairInStep() {
    int[] shared = new int[1];

    assertThat(pairs(left("a", "b", "c"), right("a", "b", "c"), shared)).containsExactly("a=0/A", "b=1/B", "c=2/C");
    assertThat(shared[0]).isEqualTo(3);
  }

  @Test
  void aClusterAddedOnTheLeftHasNoPartnerAndTheRestStillPair() {
    int[] shared = new int[1];

    assertThat(pairs(left("a", "b", "c"), right("a", "c"), shared)).containsExactly("a=0/A", "b=1/null", "c=2/C");
    assertThat(shared[0]).isEqualTo(2);
  }

  @Test
  void aClusterRemovedFromTheLeftIsNotVisited() {
    int[] shared = new int[1];

    assertThat(pairs(left("a", "c"), right("a", "b", "c"), shared)).containsExactly("a=0/A", "c=1/C");
    assertThat(shared[0]).isEqualTo(2);
  }

  @Test
  void mapsOrderedDifferentlyPairByKey() {
    Map<String, String> reversed = new LinkedHashMap<>();
    reversed.put("c", "C");
    reversed.put("b", "B");
    reversed.put("a", "A");
    int[] shared = new int[1];

    assertThat(pairs(left("a", "b", "c"), reversed, shared)).containsExactly("a=0/A", "b=1/B", "c=2/C");
    assertThat(shared[0]).isEqualTo(3);
  }

  @Test
  void anEmptyRightLeavesEveryClusterUnpaired() {
    int[] shared = new int[1];

    assertThat(pairs(left("a", "b"), right(), shared)).containsExactly("a=0/null", "b=1/null");
    assertThat(shared[0]).isZero();
  }
}
