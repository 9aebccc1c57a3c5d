package io.signalbox.store.memory;

import io.signalbox.store.IntentStore;
import io.signalbox.store.OverrideStore;
import io.signalbox.store.StoredOverride;
import java.util.ArrayList;
import java.util.List;

/** Overrides in the heap, for {@code store.url: memory}. */
final class InMemoryOverrideStore implements OverrideStore {

  private record Row(StoredOverride override, boolean active) {}

  // Guarded by itself.
  private final List<Row> rows = new ArrayList<>();
  private final java.util.concurrent.atomic.AtomicLong revision;

  /** @param revision the intent revision every change makes grow (see {@link IntentStore#revision}) */
  InMemoryOverrideStore(java.util.concurrent.atomic.AtomicLong revision) {
    this.revision = revision;
  }

  /** Every override ever made, active or not, oldest first. */
  List<StoredOverride> all() {
    synchronized (rows) {
      return rows.stream().map(Row::override).toList();
    }
  }

  @Override
  public List<StoredOverride> active() {
    synchronized (rows) {
      return rows.stream().filter(Row::active).map(Row::override).toList();
    }
  }

  @Override
  public void put(StoredOverride override) {
    synchronized (rows) {
      remove(override.cluster(), override.address(), override.port(), override.kind());
      rows.add(new Row(override, true));
      revision.incrementAndGet();
    }
  }

  @Override
  public boolean remove(String cluster, String address, int port, String kind) {
    synchronized (rows) {
      boolean removed = false;
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        if (r.active() && r.override().sameTarget(cluster, address, port, kind)) {
          rows.set(i, new Row(r.override(), false));
          removed = true;
        }
      }
      if (removed) {
        revision.incrementAndGet();
      }
      return removed;
    }
  }

  @Override
  public int count(String cluster, String address, int port, String kind) {
    synchronized (rows) {
      return (int) rows.stream().filter(r -> r.override().sameTarget(cluster, address, port, kind)).count();
    }
  }
}
