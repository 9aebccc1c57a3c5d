package io.signalbox.store.memory;

import io.signalbox.store.IntentStore;
import io.signalbox.store.StoredIntent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** Intent in the heap, for {@code store.url: memory}: the same semantics, gone with the process. */
final class InMemoryIntentStore implements IntentStore {

  private record Key(String type, String name) {}

  private final InMemoryOverrideStore overrides;
  private final AtomicLong revision;
  private record DropKey(String cluster, String category) {}

  /** As the PostgreSQL store reads them: by cluster, then the order clients apply them. */
  private static final java.util.Comparator<StoredIntent.Drop> DROP_ORDER =
      java.util.Comparator.comparing(StoredIntent.Drop::cluster).thenComparing(StoredIntent.Drop::at)
          .thenComparing(StoredIntent.Drop::category);

  // Guards the fields below.
  private final Object lock = new Object();
  private StoredIntent.Freeze freeze;
  private final Map<Key, StoredIntent.Quarantined> quarantine = new LinkedHashMap<>();
  private final Map<String, StoredIntent.Confirmation> confirmations = new TreeMap<>();
  private StoredIntent.Freeze ejectionFreeze;
  private final Map<DropKey, StoredIntent.Drop> drops = new LinkedHashMap<>();

  InMemoryIntentStore(InMemoryOverrideStore overrides, AtomicLong revision) {
    this.overrides = overrides;
    this.revision = revision;
  }

  @Override
  public StoredIntent read() {
    synchronized (lock) {
      Map<String, Integer> ejections = new HashMap<>();
      overrides.all().stream().filter(o -> o.kind().equals("eject"))
          .forEach(o -> ejections.merge(StoredIntent.endpointKey(o.cluster(), o.address(), o.port()), 1, Integer::sum));
      return new StoredIntent(freeze, List.copyOf(quarantine.values()), List.copyOf(confirmations.values()),
          overrides.active(), ejections, ejectionFreeze,
          drops.values().stream().sorted(DROP_ORDER).toList(), revision.get());
    }
  }

  @Override
  public void freeze(StoredIntent.Freeze f) {
    synchronized (lock) {
      freeze = f;
      revision.incrementAndGet();
    }
  }

  @Override
  public boolean unfreeze() {
    synchronized (lock) {
      if (freeze == null) {
        return false;
      }
      freeze = null;
      revision.incrementAndGet();
      return true;
    }
  }

  @Override
  public void quarantine(List<StoredIntent.Quarantined> entries) {
    synchronized (lock) {
      for (StoredIntent.Quarantined q : entries) {
        Key key = new Key(q.type(), q.name());
        // Replacing keeps insertion order as PostgreSQL's ORDER BY created_at would.
        quarantine.remove(key);
        quarantine.put(key, q);
      }
      revision.incrementAndGet();
    }
  }

  @Override
  public boolean lift(String type, String name, String rejectedVersion) {
    synchronized (lock) {
      Key key = new Key(type, name);
      StoredIntent.Quarantined q = quarantine.get(key);
      if (q == null || !q.rejectedVersion().equals(rejectedVersion)) {
        return false;
      }
      quarantine.remove(key);
      revision.incrementAndGet();
      return true;
    }
  }

  @Override
  public void confirm(StoredIntent.Confirmation c) {
    synchronized (lock) {
      confirmations.put(c.cluster(), c);
      revision.incrementAndGet();
    }
  }

  @Override
  public boolean clearConfirmation(String cluster) {
    synchronized (lock) {
      if (confirmations.remove(cluster) == null) {
        return false;
      }
      revision.incrementAndGet();
      return true;
    }
  }

  @Override
  public void freezeEjections(StoredIntent.Freeze f) {
    synchronized (lock) {
      ejectionFreeze = f;
      revision.incrementAndGet();
    }
  }

  @Override
  public boolean unfreezeEjections() {
    synchronized (lock) {
      if (ejectionFreeze == null) {
        return false;
      }
      ejectionFreeze = null;
      revision.incrementAndGet();
      return true;
    }
  }

  @Override
  public void drop(StoredIntent.Drop d) {
    synchronized (lock) {
      DropKey key = new DropKey(d.cluster(), d.category());
      StoredIntent.Drop old = drops.get(key);
      // A replaced drop keeps its place (and its creation time, as the PostgreSQL store does).
      drops.put(key, old == null ? d
          : new StoredIntent.Drop(d.cluster(), d.category(), d.perMillion(), d.actor(), d.reason(), old.at()));
      revision.incrementAndGet();
    }
  }

  @Override
  public int undrop(String cluster, String category) {
    synchronized (lock) {
      int before = drops.size();
      drops.keySet().removeIf(k -> k.cluster().equals(cluster) && (category == null || k.category().equals(category)));
      int removed = before - drops.size();
      if (removed > 0) {
        revision.incrementAndGet();
      }
      return removed;
    }
  }

  @Override
  public long revision() {
    return revision.get();
  }
}
