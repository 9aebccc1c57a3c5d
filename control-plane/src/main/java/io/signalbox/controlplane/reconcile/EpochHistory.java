package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.store.EpochLog;
import io.signalbox.store.StoreUnavailableException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recently published snapshots, so a rollback restores from memory; older ones are read back from
 * the store. The writer and the interventions thread both use it: the map is guarded by itself,
 * and a store read happens outside that lock.
 */
final class EpochHistory {

  private static final int KEEP = 16;

  private final EpochLog store;
  private final Map<Long, Snapshot> recent = new LinkedHashMap<>(KEEP, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Snapshot> eldest) {
      return size() > KEEP;
    }
  };

  EpochHistory(EpochLog store) {
    this.store = store;
  }

  void remember(Snapshot snapshot) {
    synchronized (recent) {
      recent.put(snapshot.epoch(), snapshot);
    }
  }

  /** The snapshot of {@code epoch}, or null if no such epoch exists or the store is unreachable. */
  Snapshot get(long epoch) {
    Snapshot s;
    synchronized (recent) {
      s = recent.get(epoch);
    }
    if (s != null) {
      return s;
    }
    try {
      s = store.load(epoch).map(Snapshot::fromEnvelope).orElse(null);
    } catch (StoreUnavailableException e) {
      return null;
    }
    if (s != null) {
      synchronized (recent) {
        recent.put(epoch, s);
      }
    }
    return s;
  }
}
