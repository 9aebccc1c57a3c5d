package io.signalbox.controlplane.snapshot;

/**
 * What differs between two {@link MerkleTreap}s, in time proportional to the difference when one
 * was derived from the other: a snapshot's endpoint tree shares every node its parent's has outside
 * the paths to the clusters that changed, so comparing the two by walking 10,000 clusters (and
 * looking each one up in the other tree) did 10,000 times the work of the one cluster that changed.
 *
 * <p>Two facts make the walk correct for any two treaps, shared nodes or not: the node the walk
 * stands on in each tree holds every key of its subtree's range, so equal root keys split both
 * ranges the same way; and a node's priority is a function of its key, so when the roots' keys
 * differ, the root of higher priority holds a key the other subtree cannot contain (it would be
 * that subtree's root). Shared subtrees are skipped by identity.
 */
final class TreapDiff {

  private TreapDiff() {}

  @FunctionalInterface
  interface Visitor<V> {
    /**
     * @param before the value in the first map, null if it has no such key
     * @param after the value in the second map, null if it has no such key
     */
    void changed(String key, V before, V after);
  }

  /**
   * Visits, in key order, exactly the keys whose value in {@code before} is not the very instance it
   * is in {@code after} (a key only one map holds included). Equal but distinct values are visited:
   * the caller decides whether they count as a change.
   */
  static <V> void of(MerkleTreap<V> before, MerkleTreap<V> after, Visitor<V> visitor) {
    walk(before.root(), after.root(), visitor);
  }

  private static <V> void walk(TreapNode<V> a, TreapNode<V> b, Visitor<V> visitor) {
    if (a == b) {
      return;
    }
    if (a == null) {
      added(b, visitor);
      return;
    }
    if (b == null) {
      removed(a, visitor);
      return;
    }
    if (a.key.equals(b.key)) {
      walk(a.left, b.left, visitor);
      if (a.value != b.value) {
        visitor.changed(a.key, a.value, b.value);
      }
      walk(a.right, b.right, visitor);
    } else if (TreapNode.above(a.priority, a.key, b.priority, b.key)) {
      // a's key ranks above b's root, so b does not hold it: compare what b has on either side.
      TreapNode<V>[] parts = TreapNode.split(b, a.key);
      walk(a.left, parts[0], visitor);
      visitor.changed(a.key, a.value, null);
      walk(a.right, parts[1], visitor);
    } else {
      TreapNode<V>[] parts = TreapNode.split(a, b.key);
      walk(parts[0], b.left, visitor);
      visitor.changed(b.key, null, b.value);
      walk(parts[1], b.right, visitor);
    }
  }

  private static <V> void added(TreapNode<V> n, Visitor<V> visitor) {
    if (n != null) {
      added(n.left, visitor);
      visitor.changed(n.key, null, n.value);
      added(n.right, visitor);
    }
  }

  private static <V> void removed(TreapNode<V> n, Visitor<V> visitor) {
    if (n != null) {
      removed(n.left, visitor);
      visitor.changed(n.key, n.value, null);
      removed(n.right, visitor);
    }
  }
}
