package io.signalbox.controlplane.snapshot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map.Entry;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One node of a {@link MerkleTreap} and the treap's structural operations: the shape of the tree,
 * apart from what its content hashes to. Every operation returns a new root that shares every
 * node off the path it changed, and returns the very node it was given when nothing changed, so
 * callers (and {@link TreapDiff}) can tell an unchanged subtree by identity.
 *
 * <p>A node's priority is a function of its key ({@link #priority}), so the tree's shape is a
 * function of its set of keys; a node keeps the cached digests of its value and subtree, which
 * {@link MerkleTreap} fills in and the operations carry over where the content stays the same.
 */
final class TreapNode<V> implements Entry<String, V> {
  final String key;
  final V value;
  final long priority;
  final TreapNode<V> left;
  final TreapNode<V> right;
  final int size;
  // The two digests are filled in by MerkleTreap on first use: idempotent, so volatile is enough.
  volatile byte[] valueDigest;
  volatile byte[] hash;

  TreapNode(String key, V value, long priority, TreapNode<V> left, TreapNode<V> right, byte[] valueDigest, byte[] hash) {
    this.key = key;
    this.value = value;
    this.priority = priority;
    this.left = left;
    this.right = right;
    this.size = 1 + size(left) + size(right);
    this.valueDigest = valueDigest;
    this.hash = hash;
  }

  TreapNode<V> withChildren(TreapNode<V> l, TreapNode<V> r) {
    return new TreapNode<>(key, value, priority, l, r, valueDigest, null);
  }

  @Override
  public String getKey() {
    return key;
  }

  @Override
  public V getValue() {
    return value;
  }

  @Override
  public V setValue(V v) {
    throw new UnsupportedOperationException("immutable");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Entry<?, ?> e && key.equals(e.getKey()) && Objects.equals(value, e.getValue());
  }

  @Override
  public int hashCode() {
    return key.hashCode() ^ Objects.hashCode(value);
  }

  @Override
  public String toString() {
    return key + "=" + value;
  }

  /**
   * The root of a treap of the first {@code n} keys, which must be strictly ascending, in linear
   * time (a Cartesian tree built with a stack); null when {@code n} is 0.
   */
  static <V> TreapNode<V> ofSorted(String[] keys, V[] values, int n) {
    long[] priorities = new long[n];
    int[] left = new int[n];
    int[] right = new int[n];
    int[] stack = new int[n];
    int top = -1;
    for (int i = 0; i < n; i++) {
      if (keys[i] == null || (i > 0 && keys[i - 1].compareTo(keys[i]) >= 0)) {
        throw new IllegalArgumentException("keys must be non-null and strictly ascending, found '"
            + (i > 0 ? keys[i - 1] : "") + "' then '" + keys[i] + "'");
      }
      priorities[i] = priority(keys[i]);
      left[i] = -1;
      right[i] = -1;
      int last = -1;
      while (top >= 0 && above(priorities[i], keys[i], priorities[stack[top]], keys[stack[top]])) {
        last = stack[top--];
      }
      left[i] = last;
      if (top >= 0) {
        right[stack[top]] = i;
      }
      stack[++top] = i;
    }
    return top < 0 ? null : build(stack[0], keys, values, priorities, left, right);
  }

  private static <V> TreapNode<V> build(int i, String[] keys, V[] values, long[] priorities, int[] left, int[] right) {
    TreapNode<V> l = left[i] < 0 ? null : build(left[i], keys, values, priorities, left, right);
    TreapNode<V> r = right[i] < 0 ? null : build(right[i], keys, values, priorities, left, right);
    return new TreapNode<>(keys[i], values[i], priorities[i], l, r, null, null);
  }

  /** {@code n} with {@code key} mapped to {@code value}; only the path to it is copied. */
  static <V> TreapNode<V> insert(TreapNode<V> n, String key, V value) {
    return insert(n, key, value, priority(key));
  }

  private static <V> TreapNode<V> insert(TreapNode<V> n, String key, V value, long priority) {
    if (n == null) {
      return new TreapNode<>(key, value, priority, null, null, null, null);
    }
    int c = key.compareTo(n.key);
    if (c == 0) {
      return n.value == value ? n : new TreapNode<>(n.key, value, n.priority, n.left, n.right, null, null);
    }
    // A priority is a function of the name, so a name already present is always below its
    // ancestors and is reached by descending; only a new name can belong above n.
    if (above(priority, key, n.priority, n.key)) {
      TreapNode<V>[] parts = split(n, key);
      return new TreapNode<>(key, value, priority, parts[0], parts[1], null, null);
    }
    if (c < 0) {
      TreapNode<V> l = insert(n.left, key, value, priority);
      return l == n.left ? n : n.withChildren(l, n.right);
    }
    TreapNode<V> r = insert(n.right, key, value, priority);
    return r == n.right ? n : n.withChildren(n.left, r);
  }

  /** The nodes of {@code n} below and above {@code key}, which {@code n} does not hold. */
  @SuppressWarnings("unchecked")
  static <V> TreapNode<V>[] split(TreapNode<V> n, String key) {
    if (n == null) {
      return new TreapNode[] {null, null};
    }
    if (key.compareTo(n.key) < 0) {
      TreapNode<V>[] parts = split(n.left, key);
      parts[1] = n.withChildren(parts[1], n.right);
      return parts;
    }
    TreapNode<V>[] parts = split(n.right, key);
    parts[0] = n.withChildren(n.left, parts[0]);
    return parts;
  }

  /** {@code n} without {@code key}; only the path to it is copied. */
  static <V> TreapNode<V> remove(TreapNode<V> n, String key) {
    if (n == null) {
      return null;
    }
    int c = key.compareTo(n.key);
    if (c == 0) {
      return join(n.left, n.right);
    }
    if (c < 0) {
      TreapNode<V> l = remove(n.left, key);
      return l == n.left ? n : n.withChildren(l, n.right);
    }
    TreapNode<V> r = remove(n.right, key);
    return r == n.right ? n : n.withChildren(n.left, r);
  }

  /** Every key of {@code a} is below every key of {@code b}. */
  private static <V> TreapNode<V> join(TreapNode<V> a, TreapNode<V> b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    if (above(a.priority, a.key, b.priority, b.key)) {
      return a.withChildren(a.left, join(a.right, b));
    }
    return b.withChildren(join(a, b.left), b.right);
  }

  /**
   * {@code n} with the values of {@code keys[from, to)} (sorted; absent ones are skipped) passed
   * through {@code f}, keeping the cached digests: {@code f} must not change the content.
   */
  static <V> TreapNode<V> replace(TreapNode<V> n, String[] keys, int from, int to, UnaryOperator<V> f) {
    if (n == null || from >= to) {
      return n;
    }
    int at = Arrays.binarySearch(keys, from, to, n.key);
    int leftEnd = at >= 0 ? at : -at - 1;
    int rightStart = at >= 0 ? at + 1 : leftEnd;
    TreapNode<V> l = replace(n.left, keys, from, leftEnd, f);
    TreapNode<V> r = replace(n.right, keys, rightStart, to, f);
    V value = at >= 0 ? f.apply(n.value) : n.value;
    if (l == n.left && r == n.right && value == n.value) {
      return n;
    }
    return new TreapNode<>(n.key, value, n.priority, l, r, n.valueDigest, n.hash);
  }

  static boolean above(long p1, String k1, long p2, String k2) {
    return p1 > p2 || (p1 == p2 && k1.compareTo(k2) < 0);
  }

  /** The first 8 bytes of the key's SHA-256: names cannot be crafted to unbalance the tree. */
  private static long priority(String key) {
    byte[] h = MerkleTreap.sha256().digest(key.getBytes(StandardCharsets.UTF_8));
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (h[i] & 0xff);
    }
    return p;
  }

  static int size(TreapNode<?> n) {
    return n == null ? 0 : n.size;
  }

  /** The entries under {@code root} in key order. */
  static <V> Iterator<Entry<String, V>> inOrder(TreapNode<V> root) {
    return new InOrder<>(root);
  }

  private static final class InOrder<V> implements Iterator<Entry<String, V>> {
    private final ArrayDeque<TreapNode<V>> stack = new ArrayDeque<>();

    InOrder(TreapNode<V> root) {
      descend(root);
    }

    private void descend(TreapNode<V> n) {
      for (; n != null; n = n.left) {
        stack.push(n);
      }
    }

    @Override
    public boolean hasNext() {
      return !stack.isEmpty();
    }

    @Override
    public Entry<String, V> next() {
      if (stack.isEmpty()) {
        throw new NoSuchElementException();
      }
      TreapNode<V> n = stack.pop();
      descend(n.right);
      return n;
    }
  }
}
