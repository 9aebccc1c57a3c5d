package io.signalbox.store.memory;

import io.signalbox.store.ClientRecord;
import io.signalbox.store.ClientStatusStore;
import io.signalbox.store.NackEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@link ClientStatusStore} in memory, with the semantics of {@code postgres.PostgresClientStatuses}. */
final class InMemoryClientStatuses implements ClientStatusStore {

  /** The order {@code postgres.PostgresClientStatuses.all()} uses too. */
  static final Comparator<ClientRecord> MOST_RECENTLY_SEEN_FIRST = Comparator
      .comparing(ClientRecord::lastSeenAt).reversed()
      .thenComparing(r -> r.key().replicaId())
      .thenComparing(r -> r.key().nodeId())
      .thenComparingLong(r -> r.key().streamId())
      .thenComparing(r -> r.key().typeUrl());

  private final Map<ClientRecord.Key, ClientRecord> clients = new HashMap<>(); // guarded by this
  private final List<NackEvent> nacks = new ArrayList<>(); // guarded by this, oldest first

  @Override
  public synchronized void save(List<ClientRecord> records) {
    records.forEach(r -> clients.put(r.key(), r));
  }

  @Override
  public synchronized List<ClientRecord> all() {
    return clients.values().stream().sorted(MOST_RECENTLY_SEEN_FIRST).toList();
  }

  @Override
  public synchronized int disconnectAllBut(Set<String> alive) {
    int changed = 0;
    for (Map.Entry<ClientRecord.Key, ClientRecord> e : clients.entrySet()) {
      if (e.getValue().connected() && !alive.contains(e.getKey().replicaId())) {
        e.setValue(e.getValue().disconnected(e.getValue().lastSeenAt()));
        changed++;
      }
    }
    return changed;
  }

  @Override
  public synchronized void recordNack(NackEvent event) {
    nacks.add(event);
  }

  @Override
  public synchronized List<NackEvent> recentNacks(int limit) {
    return newestFirst().stream().limit(limit).toList();
  }

  @Override
  public synchronized List<NackEvent> nacksOf(long snapshotEpoch) {
    return newestFirst().stream().filter(e -> e.snapshotEpoch() == snapshotEpoch).toList();
  }

  private List<NackEvent> newestFirst() {
    List<NackEvent> reversed = new ArrayList<>(nacks);
    Collections.reverse(reversed);
    return reversed;
  }
}
