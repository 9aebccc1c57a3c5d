package io.signalbox.controlplane.telemetry;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamEndpointStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.signalbox.store.LoadReportStore;
import io.signalbox.store.LoadReportStore.ClientFreshness;
import io.signalbox.store.LoadReportStore.ClientLoadRow;
import io.signalbox.store.LoadReportStore.DropRow;
import io.signalbox.store.LoadReportStore.LoadRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's aggregation of load reports. Every report and every interval close runs on one
 * thread ({@code lrs-aggregate}), so the state below has no lock; streams hand reports over and
 * return. Counts are summed in flat arrays per cluster × locality (× endpoint) key, interned once,
 * so a report allocates nothing per locality beyond its parse. Each interval (aligned to multiples
 * of the reporting interval since the epoch, so every replica's rows line up) is written to the
 * store once, as compact rows, by a second thread ({@code lrs-store}) so a slow database never
 * holds reports up.
 *
 * <p>Counts in a report are since that client's previous report, so nothing needs undoing when a
 * client restarts, its stream resets or its counters start again from zero, and a late report
 * simply counts in the interval it arrives in; demand, for admission, is the one exception: each
 * report is spread over the time it covers ({@link DemandSpread}). In flight is a gauge: each client's latest value,
 * carried forward where a client leaves a busy locality out (see {@link ClientState#omitted}).
 */
final class LoadAggregator implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LoadAggregator.class);

  /**
   * The most one report may say about one locality: 2^40 requests in one interval is over 100
   * billion a second at 10 s. A larger value (or a negative one: uint64 above 2^63 reads negative
   * in Java) is a broken or hostile client; the entry is refused and counted, the rest of the
   * report is used.
   */
  static final long MAX_COUNT = 1L << 40;
  static final int MAX_IN_FLIGHT = 1 << 30;
  /** A client silent for longer than this many intervals starts a new run when it reports again. */
  private static final int SILENCE_INTERVALS = 2;
  /** A report said to cover more than this (a day) covers it: only its share of the window counts anyway. */
  private static final long MAX_COVERED_SECONDS = 86_400;

  private record DropName(int cluster, String category) {}

  private final Clock clock;
  private final long intervalMillis;
  private final Duration retention;
  private final String replica;
  private final LoadReportStore store;
  private final Supplier<KnownClusters> known;
  private final LoadMetrics metrics;
  private final long base;
  private final ScheduledExecutorService thread;
  private final ScheduledExecutorService writer;

  // Owned by the aggregation thread.
  private final PlaceKeys keys = new PlaceKeys();
  // Per key: this interval's sums.
  private long[] issued = new long[64];
  private long[] succeeded = new long[64];
  private long[] errored = new long[64];
  private long[] inFlight = new long[64];
  private boolean[] touched = new boolean[64];
  private int[] touchedList = new int[64];
  private int touchedCount;
  private final Map<DropName, long[]> drops = new HashMap<>();
  private final Map<String, ClientState> clients = new HashMap<>();
  private final DemandSpread demand;
  private long intervalStart;
  private int intervalsClosed;

  LoadAggregator(Clock clock, Duration interval, Duration retention, String replica, LoadReportStore store,
      Supplier<KnownClusters> known, LoadMetrics metrics) {
    this.clock = clock;
    this.intervalMillis = interval.toMillis();
    this.retention = retention;
    this.replica = replica;
    this.store = store;
    this.known = known;
    this.metrics = metrics;
    this.base = clock.millis();
    this.intervalStart = alignedStart(base);
    this.demand = new DemandSpread(intervalMillis, intervalStart);
    this.thread = Executors.newSingleThreadScheduledExecutor(
        new ThreadFactoryBuilder().setNameFormat("lrs-aggregate").setDaemon(true).build());
    this.writer = Executors.newSingleThreadScheduledExecutor(
        new ThreadFactoryBuilder().setNameFormat("lrs-store").setDaemon(true).build());
  }

  void start() {
    long now = clock.millis();
    long next = alignedStart(now) + intervalMillis;
    thread.scheduleAtFixedRate(this::closeInterval, next - now, intervalMillis, TimeUnit.MILLISECONDS);
  }

  private long alignedStart(long millis) {
    return millis - Math.floorMod(millis, intervalMillis);
  }

  /** A stream opened for {@code nodeId}. */
  void opened(String nodeId) {
    thread.execute(() -> client(nodeId, clock.millis()).openStreams++);
  }

  /** A stream of {@code nodeId} ended; its client is forgotten after the interval if none is left. */
  void closed(String nodeId) {
    thread.execute(() -> {
      ClientState c = clients.get(nodeId);
      if (c != null && --c.openStreams <= 0 && c.forget(secondsSinceBase(clock.millis()))) {
        c.dirty = true;
      }
    });
  }

  /** Hands a report over; returns at once, and runs {@code applied} once the report is summed. */
  void report(String nodeId, LoadStatsRequest request, Runnable applied) {
    thread.execute(() -> {
      try {
        apply(nodeId, request);
      } finally {
        applied.run();
      }
    });
  }

  private ClientState client(String nodeId, long now) {
    return clients.computeIfAbsent(nodeId, id -> new ClientState(id, now));
  }

  private void apply(String nodeId, LoadStatsRequest request) {
    long now = clock.millis();
    int nowSeconds = secondsSinceBase(now);
    KnownClusters served = known.get();
    ClientState client = client(nodeId, now);
    long previous = client.lastReport;
    if (now - client.lastReport > SILENCE_INTERVALS * intervalMillis + intervalMillis) {
      client.reportingSince = now;
      client.forget(nowSeconds);
    }
    client.lastReport = now;
    client.beginReport();
    client.dirty = true;
    metrics.report();
    int[] named = new int[request.getClusterStatsCount()];
    int namedCount = 0;
    for (ClusterStats stats : request.getClusterStatsList()) {
      String clusterName = stats.getClusterName();
      if (!served.knows(clusterName)) {
        metrics.refused(LoadMetrics.UNKNOWN_CLUSTER);
        continue;
      }
      int cluster = keys.cluster(clusterName);
      named[namedCount++] = cluster;
      long requests = 0;
      for (UpstreamLocalityStats l : stats.getUpstreamLocalityStatsList()) {
        Locality locality = new Locality(l.getLocality().getRegion(), l.getLocality().getZone(),
            l.getLocality().getSubZone());
        int key = keys.served(served, cluster, locality, "");
        if (key < 0) {
          metrics.refused(LoadMetrics.UNKNOWN_LOCALITY);
          continue;
        }
        if (!add(client, key, l.getTotalIssuedRequests(), l.getTotalSuccessfulRequests(),
            l.getTotalErrorRequests(), l.getTotalRequestsInProgress(), nowSeconds)) {
          continue;
        }
        requests += l.getTotalIssuedRequests();
        locality = keys.name(key).locality(); // the interned one: its strings' hashes are known
        // Envoy's per-endpoint figures (report_endpoint_granularity), kept only for endpoints the
        // assignment puts in this locality: their number is then bounded by what is served.
        for (UpstreamEndpointStats e : l.getUpstreamEndpointStatsList()) {
          int endpointKey = keys.served(served, cluster, locality, endpoint(e));
          if (endpointKey < 0) {
            metrics.refused(LoadMetrics.UNKNOWN_ENDPOINT);
            continue;
          }
          add(client, endpointKey, e.getTotalIssuedRequests(), e.getTotalSuccessfulRequests(),
              e.getTotalErrorRequests(), e.getTotalRequestsInProgress(), nowSeconds);
        }
      }
      long categorized = 0;
      for (ClusterStats.DroppedRequests d : stats.getDroppedRequestsList()) {
        if (!plausible(d.getDroppedCount())) {
          metrics.refused(LoadMetrics.ABSURD_VALUE);
          continue;
        }
        categorized += d.getDroppedCount();
        drop(cluster, d.getCategory(), d.getDroppedCount());
        if (d.getCategory().equals(DemandWindow.SHED_CATEGORY)) {
          requests += d.getDroppedCount();
        }
      }
      demand.add(cluster, now, covered(stats, now, previous), requests);
      long total = stats.getTotalDroppedRequests();
      if (!plausible(total)) {
        metrics.refused(LoadMetrics.ABSURD_VALUE);
      } else if (total > categorized) {
        drop(cluster, DropLoad.UNCATEGORIZED, total - categorized);
      }
    }
    client.omitted(named, namedCount, keys::clusterOf, nowSeconds);
  }

  /**
   * The time {@code stats} covers: its {@code load_report_interval} (grpc-java and Envoy set it to
   * the time since their previous report, however long the stream was down), else the time since
   * this client's previous report to this replica, else (its first here) one interval.
   */
  private long covered(ClusterStats stats, long now, long previous) {
    com.google.protobuf.Duration d = stats.getLoadReportInterval();
    long seconds = Math.min(d.getSeconds(), MAX_COVERED_SECONDS);
    long millis = seconds * 1000 + d.getNanos() / 1_000_000;
    if (millis <= 0 && previous > 0) {
      // Counts are since the previous report: spread over that, however long (a gap can only thin them).
      millis = now - previous;
    }
    return millis > 0 ? millis : intervalMillis;
  }

  /** Rounded up: an idle start may only be told later than it was, never earlier. */
  private int secondsSinceBase(long millis) {
    return (int) ((millis - base + 999) / 1000);
  }

  private static String endpoint(UpstreamEndpointStats e) {
    SocketAddress a = e.getAddress().getSocketAddress();
    return a.getAddress() + ":" + a.getPortValue();
  }

  private static boolean plausible(long count) {
    return count >= 0 && count <= MAX_COUNT;
  }

  private boolean add(ClientState client, int key, long issuedNow, long succeededNow, long erroredNow,
      long inFlightNow, int nowSeconds) {
    if (!plausible(issuedNow) || !plausible(succeededNow) || !plausible(erroredNow) || inFlightNow < 0
        || inFlightNow > MAX_IN_FLIGHT) {
      metrics.refused(LoadMetrics.ABSURD_VALUE);
      return false;
    }
    if (key >= issued.length) {
      int n = Math.max(issued.length * 2, keys.size());
      issued = Arrays.copyOf(issued, n);
      succeeded = Arrays.copyOf(succeeded, n);
      errored = Arrays.copyOf(errored, n);
      inFlight = Arrays.copyOf(inFlight, n);
      touched = Arrays.copyOf(touched, n);
    }
    issued[key] += issuedNow;
    succeeded[key] += succeededNow;
    errored[key] += erroredNow;
    touch(key);
    client.work(key, (int) inFlightNow, nowSeconds);
    return true;
  }

  private void touch(int key) {
    if (!touched[key]) {
      touched[key] = true;
      if (touchedCount == touchedList.length) {
        touchedList = Arrays.copyOf(touchedList, touchedCount * 2);
      }
      touchedList[touchedCount++] = key;
    }
  }

  private void drop(int cluster, String category, long count) {
    drops.computeIfAbsent(new DropName(cluster, category), k -> new long[1])[0] += count;
  }

  /** Closes the interval that has just ended: its rows go to the store, the sums start again. */
  private void closeInterval() {
    try {
      Instant start = Instant.ofEpochMilli(intervalStart);
      long now = clock.millis();
      // In flight: each client's latest value from a report in this interval, summed.
      List<ClientLoadRow> clientRows = new ArrayList<>();
      List<ClientFreshness> fresher = new ArrayList<>();
      for (ClientState c : clients.values()) {
        if (c.lastReport >= intervalStart) {
          c.forEach(c::names, keys::clusterOf, (key, count, idle) -> {
            if (count > 0) {
              inFlight[key] += count;
              touch(key);
            }
          });
        }
        if (c.dirty) {
          long digest = ClientRows.digest(c, base, keys::clusterOf);
          // A client reporting the same work again moves only its row's last report (readers judge
          // "stopped" by it): a few bytes per client per interval instead of its whole row.
          if (digest == c.writtenDigest) {
            fresher.add(new ClientFreshness(c.nodeId, replica, Instant.ofEpochMilli(c.lastReport)));
          } else {
            clientRows.add(ClientRows.row(c, replica, base, keys.clusterNames(), keys::line, keys::clusterOf));
            c.writtenDigest = digest;
          }
          c.dirty = false;
        }
      }
      List<LoadRow> loadRows = new ArrayList<>(touchedCount);
      for (int i = 0; i < touchedCount; i++) {
        int key = touchedList[i];
        PlaceKeys.KeyName name = keys.name(key);
        loadRows.add(new LoadRow(start, replica, keys.clusterName(name.cluster()), name.locality().region(),
            name.locality().zone(), name.locality().subZone(), name.endpoint(), issued[key], succeeded[key],
            errored[key], inFlight[key]));
        issued[key] = 0;
        succeeded[key] = 0;
        errored[key] = 0;
        inFlight[key] = 0;
        touched[key] = false;
      }
      touchedCount = 0;
      loadRows.addAll(demand.changed(replica, keys::clusterName));
      List<DropRow> dropRows = new ArrayList<>(drops.size());
      drops.forEach((k, v) -> dropRows.add(new DropRow(start, replica, keys.clusterName(k.cluster()), k.category(), v[0])));
      drops.clear();
      clients.values().removeIf(c -> c.openStreams <= 0 && !c.dirty);
      intervalStart = alignedStart(now);
      boolean prune = ++intervalsClosed % 30 == 0;
      writer.execute(() -> write(loadRows, dropRows, clientRows, fresher,
          prune ? Instant.ofEpochMilli(now).minus(retention) : null));
    } catch (RuntimeException e) {
      // A bug here must not stop the schedule (scheduleAtFixedRate cancels on an exception).
      log.error("closing a load-report interval failed", e);
    }
  }

  private void write(List<LoadRow> loads, List<DropRow> dropRows, List<ClientLoadRow> clientRows,
      List<ClientFreshness> fresher, Instant pruneBefore) {
    try {
      if (!loads.isEmpty() || !dropRows.isEmpty() || !clientRows.isEmpty()) {
        store.write(loads, dropRows, clientRows);
      }
      if (!fresher.isEmpty() && store.touch(fresher) < fresher.size()) {
        // A row to touch is missing (deleted, or its whole write was lost): write every row whole.
        rewriteClients();
      }
      if (pruneBefore != null) {
        store.deleteBefore(pruneBefore);
      }
    } catch (RuntimeException e) {
      // The store is down or failing: this interval's rows are lost, the next ones are written,
      // client rows whole (the store may not hold the rows a touch would move).
      metrics.writeFailed();
      rewriteClients();
      log.warn("writing load-report rows failed: {}", e.toString());
    }
  }

  /** Makes the next interval write every client's row whole. */
  private void rewriteClients() {
    try {
      thread.execute(() -> clients.values().forEach(c -> c.writtenDigest = 0));
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // Closing: there is no next interval.
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    writer.shutdown();
    try {
      writer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
