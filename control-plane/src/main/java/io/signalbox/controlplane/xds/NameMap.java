package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.XdsResource;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Resource name to resource, for what one client was sent of one type: an open-addressing table
 * (linear probing, keys and values side by side in one array) instead of a {@link java.util.HashMap}.
 * A client subscribed to 100 clusters keeps two of these (CDS and EDS); as HashMaps they were
 * 8.4 KB of its heap (a 32-byte node per entry and a table of 256 slots), here about 2 KB. Names
 * are mostly interned ({@code SubscribedNames}), so a lookup usually ends on an identity check.
 *
 * <p>Null keys and values are refused. Not thread-safe: confined, like {@link SentAndHeld}.
 */
final class NameMap extends AbstractMap<String, XdsResource> {

  // Filled up to 4/5: a table of 128 slots holds 100 names.
  private Object[] table = new Object[8];
  private int size;

  private int mask() {
    return (table.length >> 1) - 1;
  }

  private int home(Object key) {
    int h = key.hashCode() * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask();
  }

  /** The slot holding {@code key}, or -1. */
  private int find(Object key) {
    if (key == null) {
      return -1;
    }
    int mask = mask();
    for (int i = home(key); ; i = (i + 1) & mask) {
      Object k = table[i << 1];
      if (k == null) {
        return -1;
      }
      if (k == key || k.equals(key)) {
        return i;
      }
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) >= 0;
  }

  @Override
  public XdsResource get(Object key) {
    int i = find(key);
    return i < 0 ? null : (XdsResource) table[(i << 1) + 1];
  }

  @Override
  public XdsResource put(String key, XdsResource value) {
    if (key == null || value == null) {
      throw new NullPointerException("NameMap holds no null name or resource");
    }
    int mask = mask();
    for (int i = home(key); ; i = (i + 1) & mask) {
      Object k = table[i << 1];
      if (k == null) {
        table[i << 1] = key;
        table[(i << 1) + 1] = value;
        if (++size * 5 > (mask + 1) * 4) {
          grow();
        }
        return null;
      }
      if (k == key || k.equals(key)) {
        XdsResource before = (XdsResource) table[(i << 1) + 1];
        table[(i << 1) + 1] = value;
        return before;
      }
    }
  }

  private void grow() {
    Object[] old = table;
    table = new Object[old.length << 1];
    size = 0;
    for (int i = 0; i < old.length; i += 2) {
      if (old[i] != null) {
        put((String) old[i], (XdsResource) old[i + 1]);
      }
    }
  }

  @Override
  public XdsResource remove(Object key) {
    int i = find(key);
    if (i < 0) {
      return null;
    }
    XdsResource before = (XdsResource) table[(i << 1) + 1];
    removeAt(i);
    return before;
  }

  /**
   * Empties slot {@code i} and moves back each later entry of its run that may no longer be found
   * past the gap (backward-shift deletion: no tombstones, so lookups stay short).
   */
  private void removeAt(int i) {
    int mask = mask();
    int gap = i;
    for (int j = (i + 1) & mask; table[j << 1] != null; j = (j + 1) & mask) {
      int home = home(table[j << 1]);
      boolean reachable = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!reachable) {
        table[gap << 1] = table[j << 1];
        table[(gap << 1) + 1] = table[(j << 1) + 1];
        gap = j;
      }
    }
    table[gap << 1] = null;
    table[(gap << 1) + 1] = null;
    size--;
  }

  @Override
  public void clear() {
    if (size > 0) {
      java.util.Arrays.fill(table, null);
      size = 0;
    }
  }

  /** Removes every entry whose name {@code gone} accepts. */
  void removeNames(Predicate<String> gone) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < table.length; i += 2) {
      if (table[i] != null && gone.test((String) table[i])) {
        names.add((String) table[i]);
      }
    }
    names.forEach(this::remove);
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super XdsResource> action) {
    for (int i = 0; i < table.length; i += 2) {
      if (table[i] != null) {
        action.accept((String) table[i], (XdsResource) table[i + 1]);
      }
    }
  }

  @Override
  public Set<Entry<String, XdsResource>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Entry<String, XdsResource>> iterator() {
        return new Iterator<>() {
          private int next = advance(0);

          private int advance(int from) {
            int i = from;
            while (i < table.length && table[i] == null) {
              i += 2;
            }
            return i;
          }

          @Override
          public boolean hasNext() {
            return next < table.length;
          }

          @Override
          public Entry<String, XdsResource> next() {
            if (next >= table.length) {
              throw new NoSuchElementException();
            }
            Entry<String, XdsResource> e = new SimpleImmutableEntry<>((String) table[next], (XdsResource) table[next + 1]);
            next = advance(next + 2);
            return e;
          }
        };
      }
    };
  }
}
