package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore;
import io.signalbox.store.LoadReportStore.ClientLoadRow;
import io.signalbox.store.LoadReportStore.DropRow;
import io.signalbox.store.LoadReportStore.LoadRow;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link FleetLoad} read from the store, where every replica writes its rows: the sums here are
 * over replicas, so every replica answers with the same figures. A client with rows on two
 * replicas (it moved, or two processes share a node id) counts once, with the freshest row; its
 * work is that row's.
 *
 * <p>With the store unreachable every read answers "nothing reported", never an error: the status
 * route and the dashboard read these figures and must keep answering through a database outage
 * (StoreOutageDrillIT), and for a drain no reports means the deadline decides, never that a client
 * is idle. Figures from before the outage are not served: they could say idle for work started since.
 */
final class StoredFleetLoad implements FleetLoad {

  private final LoadReportStore store;
  private final Clock clock;
  private final Duration interval;
  private final Duration retention;
  private final ClientIndex.Parsed parsed;
  /** False: every question reads the client rows again; true: the first read is kept ({@link #oneRead()}). */
  private final boolean once;
  /** With {@link #once}: every cluster's rows from here on are read at once ({@link #oneRead(Instant)}); or null. */
  private final Instant allSince;
  /** Guarded by this: that read, by cluster, once made. */
  private Map<String, List<LoadRow>> allLoads;
  private Map<String, List<DropRow>> allDrops;
  /** Guarded by this: the kept read, once made. */
  private ClientIndex read;
  /** Guarded by this: the kept list of clusters with reports, once read. */
  private List<String> clusters;

  StoredFleetLoad(LoadReportStore store, Clock clock, Duration interval, Duration retention) {
    this(store, clock, interval, retention, new ClientIndex.Parsed(), false, null);
  }

  private StoredFleetLoad(LoadReportStore store, Clock clock, Duration interval, Duration retention,
      ClientIndex.Parsed parsed, boolean once, Instant allSince) {
    this.store = store;
    this.clock = clock;
    this.interval = interval;
    this.retention = retention;
    this.parsed = parsed;
    this.once = once;
    this.allSince = allSince;
  }

  /**
   * Reads every client's row at most once, however many clusters are asked about: a scrape or a
   * page over 100 clusters then costs one read of the rows, not one per cluster (issue 30's cost).
   */
  @Override
  public FleetLoad oneRead() {
    return once ? this : new StoredFleetLoad(store, clock, interval, retention, parsed, true, null);
  }

  @Override
  public FleetLoad oneRead(Instant since) {
    return new StoredFleetLoad(store, clock, interval, retention, parsed, true, since);
  }

  /** Whether a question from {@code from} is answered from the read of every cluster's rows. */
  private boolean fromAll(Instant from) {
    return allSince != null && !from.isBefore(allSince);
  }

  private synchronized void readAll() {
    if (allLoads == null) {
      Instant from = allSince.isBefore(oldest()) ? oldest() : allSince;
      Map<String, List<LoadRow>> loads = new java.util.HashMap<>();
      store.loads(from).forEach(r -> loads.computeIfAbsent(r.cluster(), k -> new ArrayList<>()).add(r));
      Map<String, List<DropRow>> drops = new java.util.HashMap<>();
      store.drops(from).forEach(r -> drops.computeIfAbsent(r.cluster(), k -> new ArrayList<>()).add(r));
      allLoads = loads;
      allDrops = drops;
    }
  }

  private List<LoadRow> loadRows(String cluster, Instant from) {
    if (!fromAll(from)) {
      return store.loads(cluster, from);
    }
    readAll();
    return allLoads.getOrDefault(cluster, List.of());
  }

  private List<DropRow> dropRows(String cluster, Instant from) {
    if (!fromAll(from)) {
      return store.drops(cluster, from);
    }
    readAll();
    return allDrops.getOrDefault(cluster, List.of());
  }

  /** Every client's freshest row; read from the store each time, or once for a {@link #oneRead()}. */
  private ClientIndex clientIndex() {
    if (!once) {
      return ClientIndex.of(store.clients(oldest()), parsed);
    }
    synchronized (this) {
      if (read == null) {
        read = ClientIndex.of(store.clients(oldest()), parsed);
      }
      return read;
    }
  }

  @Override
  public Duration interval() {
    return interval;
  }

  @Override
  public Duration retention() {
    return retention;
  }

  private Instant oldest() {
    return clock.instant().minus(retention);
  }

  @Override
  public List<String> clusters() {
    try {
      return readClusters();
    } catch (StoreUnavailableException e) {
      return List.of();
    }
  }

  private List<String> readClusters() {
    if (!once) {
      return clustersNow();
    }
    synchronized (this) {
      if (clusters == null) {
        clusters = clustersNow();
      }
      return clusters;
    }
  }

  private List<String> clustersNow() {
    java.util.TreeSet<String> out = new java.util.TreeSet<>(store.clusters(oldest()));
    out.addAll(clientIndex().clusters());
    return List.copyOf(out);
  }

  private record LoadKey(Instant start, Locality locality, String endpoint) {}

  @Override
  public ClusterLoad load(String cluster, Instant since) {
    try {
      return read(cluster, since);
    } catch (StoreUnavailableException e) {
      return new ClusterLoad(cluster, interval, List.of(), List.of(), List.of());
    }
  }

  private ClusterLoad read(String cluster, Instant since) {
    Instant from = since.isBefore(oldest()) ? oldest() : since;
    Map<LoadKey, long[]> sums = new TreeMap<>(Comparator.comparing(LoadKey::start)
        .thenComparing(LoadKey::locality).thenComparing(LoadKey::endpoint));
    for (LoadRow r : loadRows(cluster, from)) {
      if (r.intervalStart().isBefore(from) || DemandWindow.isDemand(r)) {
        continue; // read for every cluster from an earlier start, or demand (not a locality)
      }
      long[] s = sums.computeIfAbsent(new LoadKey(r.intervalStart(), new Locality(r.region(), r.zone(), r.subZone()),
          r.endpoint()), k -> new long[4]);
      s[0] += r.issued();
      s[1] += r.succeeded();
      s[2] += r.errored();
      s[3] += r.inFlight();
    }
    List<LocalityLoad> localities = new ArrayList<>(sums.size());
    sums.forEach((k, s) -> localities.add(new LocalityLoad(k.start(), cluster, k.locality(), k.endpoint(), s[0], s[1],
        s[2], s[3])));
    record DropKey(Instant start, String category) {}
    Map<DropKey, Long> dropSums = new TreeMap<>(Comparator.comparing(DropKey::start).thenComparing(DropKey::category));
    for (DropRow r : dropRows(cluster, from)) {
      if (r.intervalStart().isBefore(from)) {
        continue;
      }
      dropSums.merge(new DropKey(r.intervalStart(), r.category()), r.dropped(), Long::sum);
    }
    List<DropLoad> drops = new ArrayList<>(dropSums.size());
    dropSums.forEach((k, n) -> drops.add(new DropLoad(k.start(), cluster, k.category(), n)));
    List<ReportingClient> clients = freshest(cluster).values().stream().map(StoredFleetLoad::client).toList();
    return new ClusterLoad(cluster, interval, localities, drops, clients);
  }

  @Override
  public DemandWindow demand(String cluster, Instant now) {
    try {
      Instant from = DemandWindow.start(now, interval);
      int reporting = 0;
      for (ClientLoadRow row : freshest(cluster).values()) {
        if (!row.lastReport().isBefore(from)) {
          reporting++;
        }
      }
      return DemandWindow.of(loadRows(cluster, from), reporting, now, interval);
    } catch (StoreUnavailableException e) {
      return DemandWindow.none(now, interval);
    }
  }

  @Override
  public List<ClientWork> work(String cluster, Locality locality, String endpoint) {
    try {
      return readWork(cluster, locality, endpoint);
    } catch (StoreUnavailableException e) {
      return List.of();
    }
  }

  private List<ClientWork> readWork(String cluster, Locality locality, String endpoint) {
    List<ClientWork> out = new ArrayList<>();
    for (ClientLoadRow row : freshest(cluster).values()) {
      ReportingClient client = client(row);
      ClientWork whole = new ClientWork(client, 0, client.reportingSince());
      ClientWork own = null;
      for (ClientRows.Work w : ClientRows.work(row)) {
        if (w.cluster().equals(cluster) && w.locality().equals(locality)) {
          if (w.endpoint().isEmpty()) {
            whole = new ClientWork(client, w.inFlight(), w.idleSince());
          } else if (!endpoint.isEmpty() && w.endpoint().equals(endpoint)) {
            own = new ClientWork(client, w.inFlight(), w.idleSince());
          }
        }
      }
      out.add(own != null ? own : whole);
    }
    return out;
  }

  /** Per node id, its freshest row among those whose latest report named {@code cluster}. */
  private Map<String, ClientLoadRow> freshest(String cluster) {
    return clientIndex().freshest(cluster);
  }

  private static ReportingClient client(ClientLoadRow row) {
    return new ReportingClient(row.nodeId(), row.replica(), row.lastReport(), row.reportingSince());
  }
}
