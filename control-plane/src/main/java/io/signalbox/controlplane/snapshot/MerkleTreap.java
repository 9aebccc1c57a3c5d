package io.signalbox.controlplane.snapshot;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
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
 * <p>The tree's shape and its copy-on-write operations are {@link TreapNode}'s; this class is the
 * map over a root and the Merkle hashing.
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

  private final TreapNode<V> root;
  private final ValueDigest<V> digest;

  private MerkleTreap(TreapNode<V> root, ValueDigest<V> digest) {
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
    return new MerkleTreap<>(TreapNode.ofSorted(keys, values, n), digest);
  }

  ValueDigest<V> digest() {
    return digest;
  }

  TreapNode<V> root() {
    return root;
  }

  @Override
  public V get(Object key) {
    TreapNode<V> n = find(key);
    return n == null ? null : n.value;
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) != null;
  }

  private TreapNode<V> find(Object key) {
    if (!(key instanceof String k)) {
      return null;
    }
    TreapNode<V> n = root;
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
    return TreapNode.size(root);
  }

  @Override
  public Set<Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, V>> iterator() {
        return TreapNode.inOrder(root);
      }

      @Override
      public int size() {
        return MerkleTreap.this.size();
      }
    };
  }

  /** This map with {@code key} mapped to {@code value}; only the path to it is copied. */
  MerkleTreap<V> with(String key, V value) {
    TreapNode<V> r = TreapNode.insert(root, key, value);
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /** This map without {@code key}; only the path to it is copied. */
  MerkleTreap<V> without(String key) {
    TreapNode<V> r = TreapNode.remove(root, key);
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /**
   * This map with the values of {@code keys} (sorted; absent ones are skipped) passed through
   * {@code sameContent}, which must not change what {@link ValueDigest} sees: the cached hashes of
   * the copied nodes are kept. Shares every subtree that holds none of the keys.
   */
  MerkleTreap<V> withSameContent(String[] keys, UnaryOperator<V> sameContent) {
    TreapNode<V> r = TreapNode.replace(root, keys, 0, keys.length, sameContent);
    return r == root ? this : new MerkleTreap<>(r, digest);
  }

  /** SHA-256 Merkle hash of the content: equal for equal content however each map was built. */
  byte[] fingerprint() {
    return hash(root, SHA256.get()).clone();
  }

  private byte[] hash(TreapNode<V> n, MessageDigest md) {
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
}
