package io.signalbox.controlplane.snapshot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A {@link MerkleTreap} brought up to date with a complete listing of what it should now hold, and
 * the names that changed: the step from a parent snapshot's map to its child's.
 *
 * <p>A listing in name order (what the translator and the desired state produce) is merged with
 * the old map in one pass, and only changed names are written, by path copying; a listing in any
 * other order is handled by lookups, correct but slower. When most of the map changes (a first
 * epoch) the map is rebuilt in linear time instead of path-copied name by name.
 *
 * @param changed names whose value is a different instance than before, sorted
 * @param changedValues their new values, in the same order
 * @param removed names the old map held and the listing does not, sorted
 */
record TreapUpdate<V>(MerkleTreap<V> map, List<String> changed, List<V> changedValues, List<String> removed) {

  /** The value for {@code input}: {@code current} itself (null if new) when nothing changed. */
  @FunctionalInterface
  interface Resolver<I, V> {
    V resolve(I input, V current);
  }

  /**
   * @param duplicate the message for a name the listing holds twice (a bug upstream)
   */
  static <I, V> TreapUpdate<V> of(MerkleTreap<V> current, Collection<I> listing, Function<I, String> keyOf,
      Resolver<I, V> resolver, Function<String, String> duplicate) {
    TreapUpdate<V> merged = merge(current, listing, keyOf, resolver, duplicate);
    return merged != null ? merged : lookUp(current, listing, keyOf, resolver, duplicate);
  }

  /**
   * {@code current} with only the given changes applied: the inputs that may differ from what
   * {@code current} holds, and the names to remove. O(changes × log n); everything else is shared.
   */
  static <I, V> TreapUpdate<V> applying(MerkleTreap<V> current, List<I> changed, Function<I, String> keyOf,
      Resolver<I, V> resolver, List<String> removed) {
    MerkleTreap<V> map = current;
    List<String> gone = new ArrayList<>();
    for (String key : removed) {
      MerkleTreap<V> next = map.without(key);
      if (next != map) {
        gone.add(key);
      }
      map = next;
    }
    TreeMap<String, V> changedByName = new TreeMap<>();
    for (I input : changed) {
      String key = keyOf.apply(input);
      V was = map.get(key);
      V now = resolver.resolve(input, was);
      if (now != was) {
        map = map.with(key, now);
        changedByName.put(key, now);
      }
    }
    gone.sort(null);
    return new TreapUpdate<>(map, List.copyOf(changedByName.keySet()), List.copyOf(changedByName.values()),
        List.copyOf(gone));
  }

  /** The one-pass merge, or null if the listing turns out not to be in name order. */
  @SuppressWarnings("unchecked")
  private static <I, V> TreapUpdate<V> merge(MerkleTreap<V> current, Collection<I> listing,
      Function<I, String> keyOf, Resolver<I, V> resolver, Function<String, String> duplicate) {
    int n = listing.size();
    String[] keys = new String[n];
    Object[] values = new Object[n];
    List<String> changedKeys = new ArrayList<>();
    List<V> changedValues = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    Iterator<Map.Entry<String, V>> old = current.entrySet().iterator();
    Map.Entry<String, V> o = old.hasNext() ? old.next() : null;
    int i = 0;
    for (I input : listing) {
      String key = keyOf.apply(input);
      if (i > 0) {
        int order = keys[i - 1].compareTo(key);
        if (order == 0) {
          throw new IllegalArgumentException(duplicate.apply(key));
        }
        if (order > 0) {
          return null;
        }
      }
      while (o != null && o.getKey() != key && o.getKey().compareTo(key) < 0) {
        removed.add(o.getKey());
        o = old.hasNext() ? old.next() : null;
      }
      V was = null;
      if (o != null && (o.getKey() == key || o.getKey().equals(key))) {
        was = o.getValue();
        o = old.hasNext() ? old.next() : null;
      }
      V now = resolver.resolve(input, was);
      if (now != was) {
        changedKeys.add(key);
        changedValues.add(now);
      }
      keys[i] = key;
      values[i] = now;
      i++;
    }
    for (; o != null; o = old.hasNext() ? old.next() : null) {
      removed.add(o.getKey());
    }
    MerkleTreap<V> map;
    if (mostlyNew(changedKeys.size() + removed.size(), n)) {
      map = MerkleTreap.ofSorted(keys, (V[]) values, n, current.digest());
    } else {
      map = current;
      for (String key : removed) {
        map = map.without(key);
      }
      for (int c = 0; c < changedKeys.size(); c++) {
        map = map.with(changedKeys.get(c), changedValues.get(c));
      }
    }
    return new TreapUpdate<>(map, List.copyOf(changedKeys), List.copyOf(changedValues), List.copyOf(removed));
  }

  @SuppressWarnings("unchecked")
  private static <I, V> TreapUpdate<V> lookUp(MerkleTreap<V> current, Collection<I> listing,
      Function<I, String> keyOf, Resolver<I, V> resolver, Function<String, String> duplicate) {
    Set<String> seen = new HashSet<>();
    List<I> sorted = new ArrayList<>(listing);
    sorted.sort((a, b) -> keyOf.apply(a).compareTo(keyOf.apply(b)));
    String[] keys = new String[sorted.size()];
    Object[] values = new Object[sorted.size()];
    List<String> changed = new ArrayList<>();
    List<V> changedValues = new ArrayList<>();
    for (int i = 0; i < sorted.size(); i++) {
      String key = keyOf.apply(sorted.get(i));
      if (!seen.add(key)) {
        throw new IllegalArgumentException(duplicate.apply(key));
      }
      V was = current.get(key);
      V now = resolver.resolve(sorted.get(i), was);
      if (now != was) {
        changed.add(key);
        changedValues.add(now);
      }
      keys[i] = key;
      values[i] = now;
    }
    List<String> removed = new ArrayList<>();
    for (String key : current.keySet()) {
      if (!seen.contains(key)) {
        removed.add(key);
      }
    }
    MerkleTreap<V> map = MerkleTreap.ofSorted(keys, (V[]) values, keys.length, current.digest());
    return new TreapUpdate<>(map, List.copyOf(changed), List.copyOf(changedValues), List.copyOf(removed));
  }

  private static boolean mostlyNew(int changes, int size) {
    return changes * 8L > Math.max(size, 16);
  }
}
