package io.signalbox.store.memory;

import io.signalbox.store.LoadReportStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** {@link LoadReportStore} for {@code store.url: memory} and tests: one process's rows in maps. */
public final class InMemoryLoadReports implements LoadReportStore {

  private record LoadKey(Instant intervalStart, String replica, String cluster, String region, String zone,
      String subZone, String endpoint) {}

  private record DropKey(Instant intervalStart, String replica, String cluster, String category) {}

  // Guarded by this; every method is short and calls nothing foreign.
  private final Map<LoadKey, LoadRow> loads = new HashMap<>();
  private final Map<DropKey, DropRow> drops = new HashMap<>();
  private final Map<List<String>, ClientLoadRow> clients = new HashMap<>();

  @Override
  public synchronized void write(List<LoadRow> loadRows, List<DropRow> dropRows, List<ClientLoadRow> clientRows) {
    for (LoadRow r : loadRows) {
      loads.put(new LoadKey(r.intervalStart(), r.replica(), r.cluster(), r.region(), r.zone(), r.subZone(),
          r.endpoint()), r);
    }
    for (DropRow r : dropRows) {
      drops.put(new DropKey(r.intervalStart(), r.replica(), r.cluster(), r.category()), r);
    }
    for (ClientLoadRow r : clientRows) {
      clients.merge(List.of(r.nodeId(), r.replica()), r,
          (old, now) -> now.lastReport().isBefore(old.lastReport()) ? old : now);
    }
  }

  @Override
  public synchronized int touch(List<ClientFreshness> fresher) {
    int found = 0;
    for (ClientFreshness f : fresher) {
      ClientLoadRow r = clients.get(List.of(f.nodeId(), f.replica()));
      if (r != null && !f.lastReport().isBefore(r.lastReport())) {
        found++;
        clients.put(List.of(f.nodeId(), f.replica()), new ClientLoadRow(r.nodeId(), r.replica(), f.lastReport(),
            r.reportingSince(), r.clusters(), r.work()));
      }
    }
    return found;
  }

  @Override
  public synchronized List<LoadRow> loads(String cluster, Instant since) {
    return loadsOf(cluster, since);
  }

  @Override
  public synchronized List<DropRow> drops(String cluster, Instant since) {
    return dropsOf(cluster, since);
  }

  @Override
  public synchronized List<LoadRow> loads(Instant since) {
    return loadsOf(null, since);
  }

  @Override
  public synchronized List<DropRow> drops(Instant since) {
    return dropsOf(null, since);
  }

  /** @param cluster null: every cluster's */
  private List<LoadRow> loadsOf(String cluster, Instant since) {
    List<LoadRow> out = new ArrayList<>();
    for (LoadRow r : loads.values()) {
      if ((cluster == null || r.cluster().equals(cluster)) && !r.intervalStart().isBefore(since)) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparing(LoadRow::cluster).thenComparing(LoadRow::intervalStart)
        .thenComparing(LoadRow::replica).thenComparing(LoadRow::region).thenComparing(LoadRow::zone)
        .thenComparing(LoadRow::subZone).thenComparing(LoadRow::endpoint));
    return out;
  }

  /** @param cluster null: every cluster's */
  private List<DropRow> dropsOf(String cluster, Instant since) {
    List<DropRow> out = new ArrayList<>();
    for (DropRow r : drops.values()) {
      if ((cluster == null || r.cluster().equals(cluster)) && !r.intervalStart().isBefore(since)) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparing(DropRow::cluster).thenComparing(DropRow::intervalStart)
        .thenComparing(DropRow::replica).thenComparing(DropRow::category));
    return out;
  }

  @Override
  public synchronized List<ClientLoadRow> clients(Instant since) {
    List<ClientLoadRow> out = new ArrayList<>();
    for (ClientLoadRow r : clients.values()) {
      if (!r.lastReport().isBefore(since)) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparing(ClientLoadRow::nodeId).thenComparing(ClientLoadRow::replica));
    return out;
  }

  @Override
  public synchronized List<String> clusters(Instant since) {
    TreeSet<String> out = new TreeSet<>();
    loads.values().stream().filter(r -> !r.intervalStart().isBefore(since)).forEach(r -> out.add(r.cluster()));
    drops.values().stream().filter(r -> !r.intervalStart().isBefore(since)).forEach(r -> out.add(r.cluster()));
    return List.copyOf(out);
  }

  @Override
  public synchronized int deleteBefore(Instant cutoff) {
    int before = loads.size() + drops.size() + clients.size();
    loads.values().removeIf(r -> r.intervalStart().isBefore(cutoff));
    drops.values().removeIf(r -> r.intervalStart().isBefore(cutoff));
    clients.values().removeIf(r -> r.lastReport().isBefore(cutoff));
    return before - (loads.size() + drops.size() + clients.size());
  }
}
