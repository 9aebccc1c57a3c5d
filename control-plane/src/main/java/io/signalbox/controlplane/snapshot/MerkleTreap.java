package io.signalbox.controlplane.snapshot;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An immutable map from names to values, iterated in name order, that shares structure with the
 * map it was derived from and fingerprints its content.
 *
 * <p>It is a persistent treap: {@link #with} and {@link #without} copy only the O(log n) nodes on
 * the path to the name and share every other node, so an epoch that changes one of 10,000 clusters
 * allocates a few dozen nodes instead of copying a 10,000-entry tree. A node's priority is derived
 * from its name alone (SHA-256, so crafted names cannot unbalance the tree), which makes the
 * tree's shape a function of its set of names, independent of the order of insertions and
 * removals that built it. That is what lets each node cache a Merkle hash of its subtree: {@link
 * #fingerprint()} is the same for equal content whatever the build history, and recomputing it
 * after a change hashes only the new nodes.
 *
 * <p>Thread-safe: nodes are immutable apart from their cached hashes, which are idempotent and
 * published through volatile fields.
 *
 * @param <V> values; {@link ValueDigest} says which part of a value counts as content
 */
final class MerkleTreap<V> extends AbstractMap<String, V> {

  /**
   * What a value contributes to the fingerprint: bytes that depend on its content only. Every map
   * derived from another shares its nodes, so all of them must use the same digest instance.
   */
  @FunctionalInterface
  interface ValueDigest<V> {
    byte[] of(V value);
  }

  static final int HASH_BYTES = 32;
  private static final byte[] EMPTY_HASH = new byte[HASH_BYTES];
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(MerkleTreap::newSha256);

  private final Node<V> root;
  private final ValueDigest<V> digest;

  private MerkleTreap(Node<V> root, ValueDigest<V> digest) {
    this.root = root;
    this.digest = digest;
  }

  static <V> MerkleTreap<V> empty(ValueDigest<V> digest) {
    return new MerkleTreap<>(null, digest);
  }

  /**
   * {@code map} itself if it is already a treap with this digest, else a treap of its entries with
   * each value passed through {@code copy} (e.g. a defensive copy).
   */
  @SuppressWarnings("unchecked")
  static <V> MerkleTreap<V> copyOf(Map<String, ? extends V> map, ValueDigest<V> digest, UnaryOperator<V> copy) {
    if (map instanceof MerkleTreap<?> t && t.digest == digest) {
      return (MerkleTreap<V>) t;
    }
    String[] keys = map.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    Object[] values = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      values[i] = copy.apply(map.get(keys[i]));
    }
    return ofSorted(keys, (V[]) values, keys.length, digest);
  }

  /**
   * A treap of the first {@code n} keys, which must be strictly ascending, in linear time (a
   * Cartesian tree built with a stack).
   */
  static <V> MerkleTreap<V> ofSorted(String[] keys, V[] values, int n, ValueDigest<V> digest) {
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
    Node<V> root = top < 0 ? null : build(stack[0], keys, values, priorities, left, right);
    return new MerkleTreap<>(root, digest);
  }

  private static <V> Node<V> build(int i, String[] keys, V[] values, long[] priorities, int[] left, int[] right) {
    Node<V> l = left[i] < 0 ? null : build(left[i], keys, values, priorities, left, right);
    Node<V> r = right[i] < 0 ? null : build(right[i], keys, values, priorities, left, right);
    return new Node<>(keys[i], values[i], priorities[i], l, r, null, null);
  }

  ValueDigest<V> digest() {
    return digest;
  }

  Node<V> root() {
    return root;
  }

  @Override
  public V get(Object key) {
    Node<V> n = find(key);
    return n == null ? null : n.value;
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) != null;
  }

  private Node<V> find(Object key) {
    if (!(key instanceof String k)) {
      return null;
    }
    Node<V> n = root;
    while (n != null) {
      if (n.key == k) {
        return n;
      }
      int c = k.compareTo(n.key);
      if (c == 0) {
        return n;
      }
      n = c < 0 ? n.left : n.right;
    }
    return null;
  }

  @Override
  public int size() {
    return size(root);
  }

  @Override
  public Set<Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, V>> iterator() {
        return new InOrder<>(root);
      }

      @Override
      public int size() {
        return MerkleTreap.this.size();
      }
    };
  }

  /** This map with {@code key} mapped to {@code value}; only the path to it is copied. */
  MerkleTreap<V> with(String key, V value) {
    Node<V> r = insert(root, key, value, priority(key));
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /** This map without {@code key}; only the path to it is copied. */
  MerkleTreap<V> without(String key) {
    Node<V> r = remove(root, key);
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /**
   * This map with the values of {@code keys} (sorted; absent ones are skipped) passed through
   * {@code sameContent}, which must not change what {@link ValueDigest} sees: the cached hashes of
   * the copied nodes are kept. Shares every subtree that holds none of the keys.
   */
  MerkleTreap<V> withSameContent(String[] keys, UnaryOperator<V> sameContent) {
    Node<V> r = replace(root, keys, 0, keys.length, sameContent);
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /** SHA-256 Merkle hash of the content: equal for equal content however each map was built. */
  byte[] fingerprint() {
    return hash(root, SHA256.get()).clone();
  }

  private byte[] hash(Node<V> n, MessageDigest md) {
    if (n == null) {
      return EMPTY_HASH;
    }
    byte[] h = n.hash;
    if (h != null) {
      return h;
    }
    byte[] l = hash(n.left, md);
    byte[] r = hash(n.right, md);
    byte[] v = n.valueDigest;
    if (v == null) {
      v = digest.of(n.value);
      n.valueDigest = v;
    }
    byte[] key = n.key.getBytes(StandardCharsets.UTF_8);
    // One update of one buffer: per-call overhead dominates digests this small.
    ByteBuffer buffer = ByteBuffer.allocate(2 * HASH_BYTES + 8 + key.length + v.length);
    buffer.put(l).put(r).putInt(key.length).put(key).putInt(v.length).put(v);
    md.update(buffer.array());
    h = md.digest();
    n.hash = h;
    return h;
  }

  private static <V> Node<V> insert(Node<V> n, String key, V value, long priority) {
    if (n == null) {
      return new Node<>(key, value, priority, null, null, null, null);
    }
    int c = key.compareTo(n.key);
    if (c == 0) {
      return n.value == value ? n : new Node<>(n.key, value, n.priority, n.left, n.right, null, null);
    }
    // A priority is a function of the name, so a name already present is always below its
    // ancestors and is reached by descending; only a new name can belong above n.
    if (above(priority, key, n.priority, n.key)) {
      Node<V>[] parts = split(n, key);
      return new Node<>(key, value, priority, parts[0], parts[1], null, null);
    }
    if (c < 0) {
      Node<V> l = insert(n.left, key, value, priority);
      return l == n.left ? n : n.withChildren(l, n.right);
    }
    Node<V> r = insert(n.right, key, value, priority);
    return r == n.right ? n : n.withChildren(n.left, r);
  }

  /** The nodes of {@code n} below and above {@code key}, which {@code n} does not hold. */
  @SuppressWarnings("unchecked")
  static <V> Node<V>[] split(Node<V> n, String key) {
    if (n == null) {
      return new Node[] {null, null};
    }
    if (key.compareTo(n.key) < 0) {
      Node<V>[] parts = split(n.left, key);
      parts[1] = n.withChildren(parts[1], n.right);
      return parts;
    }
    Node<V>[] parts = split(n.right, key);
    parts[0] = n.withChildren(n.left, parts[0]);
    return parts;
  }

  private static <V> Node<V> remove(Node<V> n, String key) {
    if (n == null) {
      return null;
    }
    int c = key.compareTo(n.key);
    if (c == 0) {
      return join(n.left, n.right);
    }
    if (c < 0) {
      Node<V> l = remove(n.left, key);
      return l == n.left ? n : n.withChildren(l, n.right);
    }
    Node<V> r = remove(n.right, key);
    return r == n.right ? n : n.withChildren(n.left, r);
  }

  /** Every key of {@code a} is below every key of {@code b}. */
  private static <V> Node<V> join(Node<V> a, Node<V> b) {
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

  private static <V> Node<V> replace(Node<V> n, String[] keys, int from, int to, UnaryOperator<V> f) {
    if (n == null || from >= to) {
      return n;
    }
    int at = Arrays.binarySearch(keys, from, to, n.key);
    int leftEnd = at >= 0 ? at : -at - 1;
    int rightStart = at >= 0 ? at + 1 : leftEnd;
    Node<V> l = replace(n.left, keys, from, leftEnd, f);
    Node<V> r = replace(n.right, keys, rightStart, to, f);
    V value = at >= 0 ? f.apply(n.value) : n.value;
    if (l == n.left && r == n.right && value == n.value) {
      return n;
    }
    return new Node<>(n.key, value, n.priority, l, r, n.valueDigest, n.hash);
  }

  static boolean above(long p1, String k1, long p2, String k2) {
    return p1 > p2 || (p1 == p2 && k1.compareTo(k2) < 0);
  }

  private static long priority(String key) {
    byte[] h = SHA256.get().digest(key.getBytes(StandardCharsets.UTF_8));
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (h[i] & 0xff);
    }
    return p;
  }

  private static int size(Node<?> n) {
    return n == null ? 0 : n.size;
  }

  /** This thread's SHA-256 instance; whoever uses it must finish with {@code digest()} before another does. */
  static MessageDigest sha256() {
    return SHA256.get();
  }

  static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  static final class Node<V> implements Entry<String, V> {
    final String key;
    final V value;
    final long priority;
    final Node<V> left;
    final Node<V> right;
    final int size;
    volatile byte[] valueDigest;
    volatile byte[] hash;

    Node(String key, V value, long priority, Node<V> left, Node<V> right, byte[] valueDigest, byte[] hash) {
      this.key = key;
      this.value = value;
      this.priority = priority;
      this.left = left;
      this.right = right;
      this.size = 1 + size(left) + size(right);
      this.valueDigest = valueDigest;
      this.hash = hash;
    }

    Node<V> withChildren(Node<V> l, Node<V> r) {
      return new Node<>(key, value, priority, l, r, valueDigest, null);
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
      return o instanceof Entry<?, ?> e && key.equals(e.getKey()) && java.util.Objects.equals(value, e.getValue());
    }

    @Override
    public int hashCode() {
      return key.hashCode() ^ java.util.Objects.hashCode(value);
    }

    @Override
    public String toString() {
      return key + "=" + value;
    }
  }

  private static final class InOrder<V> implements Iterator<Entry<String, V>> {
    private final ArrayDeque<Node<V>> stack = new ArrayDeque<>();

    InOrder(Node<V> root) {
      descend(root);
    }

    private void descend(Node<V> n) {
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
      Node<V> n = stack.pop();
      descend(n.right);
      return n;
    }
  }
}
