package io.signalbox.controlplane.telemetry;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Readiness to first traffic: for each endpoint that became READY in a published epoch (new, or
 * from WARMING), when that epoch was published, and the first closed reporting interval in which
 * the clients' load reports show requests issued to it. Only where the reports can tell this
 * endpoint's requests apart: its own figures (Envoy, per endpoint) or a locality holding only it
 * (its own under {@code loadReportingPerEndpoint}); anywhere else it waits for per-endpoint figures.
 *
 * <p>The resolution is the reporting interval: a report counts in the interval it arrives in, with
 * the requests since the client's previous report, so the delay shown (the interval's end minus
 * the epoch's publication) is an upper bound, late by up to about two intervals.
 *
 * <p>State changes on {@link #poll} only (one thread, the caller's schedule); readers get the
 * immutable map published at the end of each poll. What is noted lives in this process: epochs
 * published before it started are a baseline, never "became READY".
 */
public final class FirstTraffic implements AutoCloseable {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(FirstTraffic.class);
  /** How often published epochs are looked at: often enough that an epoch's time is its own. */
  static final Duration POLL = Duration.ofMillis(500);

  /** Buckets of the per-cluster histogram, seconds: bounded, and the same for every cluster. */
  static final Duration[] BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
      Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofMinutes(1),
      Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10)};
  /** More epochs than this behind, the diff goes straight to the newest (readiness then reads late). */
  static final int MAX_CATCH_UP = 50;
  /** At most this many endpoints are followed at once; more are not noted (a mass rollout says enough). */
  static final int MAX_FOLLOWED = 5_000;

  /** An endpoint that became READY, and where its traffic would show. */
  record Ready(String cluster, String endpoint, long epoch, Instant readyAt, Locality locality, boolean alone) {}

  private final Supplier<Snapshot> published;
  private final LongFunction<Snapshot> epochs;
  private final FleetLoad load;
  private final Clock clock;
  private final Duration keep;
  private MeterRegistry registry;
  private final Set<String> namedClusters = new HashSet<>();

  // Poll thread only.
  private Snapshot noted;
  private final Map<String, Ready> waiting = new LinkedHashMap<>();
  private final Map<String, Seen> seen = new LinkedHashMap<>();

  private record Seen(String cluster, LoadView.Readiness readiness) {}
  private Instant checkedUpTo = Instant.EPOCH;

  private volatile Map<String, List<LoadView.Readiness>> byCluster = Map.of();
  private final java.util.concurrent.ScheduledExecutorService thread =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("first-traffic").setDaemon(true).build());

  /** What a server serves: its published epoch, its store's epochs, its fleet's load. */
  public static FirstTraffic of(Supplier<Snapshot> published, io.signalbox.store.EpochLog store, FleetLoad load,
      Clock clock) {
    return new FirstTraffic(published, epoch -> {
      try {
        return store.load(epoch).map(Snapshot::fromEnvelope).orElse(null);
      } catch (io.signalbox.store.StoreUnavailableException e) {
        return null; // skipped: the epoch after it is diffed against the one before
      }
    }, load, clock);
  }

  /**
   * @param published the newest published epoch (null before the first)
   * @param epochs a published epoch by number, for epochs published between two polls; null if gone
   */
  FirstTraffic(Supplier<Snapshot> published, LongFunction<Snapshot> epochs, FleetLoad load, Clock clock) {
    this.published = published;
    this.epochs = epochs;
    this.load = load;
    this.clock = clock;
    this.keep = load.retention();
  }

  /** Polls every {@link #POLL} on its own thread until closed. */
  public FirstTraffic start() {
    thread.scheduleWithFixedDelay(() -> {
      try {
        poll();
      } catch (RuntimeException e) {
        // A bug here must not stop the schedule.
        log.error("following readiness to first traffic failed", e);
      }
    }, 0, POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    return this;
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }

  /** Registers {@code signalbox_load_first_traffic_seconds} per cluster as delays are found. */
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Per endpoint of {@code cluster} that became READY within the retention: its delay, or that it waits. */
  public List<LoadView.Readiness> of(String cluster) {
    return byCluster.getOrDefault(cluster, List.of());
  }

  /** Notes newly published epochs, then looks for first traffic once a new interval has closed. */
  synchronized void poll() {
    Snapshot now = published.get();
    if (now != null && (noted == null || now.epoch() > noted.epoch())) {
      if (noted != null) {
        Snapshot from = noted;
        long first = now.epoch() - from.epoch() > MAX_CATCH_UP ? now.epoch() : from.epoch() + 1;
        for (long e = first; e < now.epoch(); e++) {
          Snapshot between = epochs.apply(e);
          if (between != null) {
            note(from, between);
            from = between;
          }
        }
        note(from, now);
      }
      noted = now;
    }
    Instant at = clock.instant();
    Instant closed = aligned(at);
    if (closed.isAfter(checkedUpTo) && !waiting.isEmpty()) {
      look(closed);
      checkedUpTo = closed;
    }
    seen.values().removeIf(s -> s.readiness().readyAt().isBefore(at.minus(keep)));
    waiting.values().removeIf(r -> r.readyAt().isBefore(at.minus(keep)));
    publish();
  }

  private Instant aligned(Instant at) {
    long i = load.interval().toMillis();
    long ms = at.toEpochMilli();
    return Instant.ofEpochMilli(ms - Math.floorMod(ms, i));
  }

  /** The endpoints READY in {@code next} that were absent or WARMING in {@code before}. */
  void note(Snapshot before, Snapshot next) {
    next.forEachEndpointChange(before, (cluster, old, list) -> {
      Map<String, EndpointState> was = new HashMap<>();
      if (old != null) {
        old.forEach(e -> was.put(key(e), e.state()));
      }
      Map<String, Placement> places = null;
      for (EndpointSpec e : list == null ? List.<EndpointSpec>of() : list) {
        String key = key(e);
        EndpointState prior = was.remove(key);
        if (e.state() != EndpointState.READY) {
          waiting.remove(cluster + "/" + key);
          continue;
        }
        if ((prior == null || prior == EndpointState.WARMING) && waiting.size() < MAX_FOLLOWED) {
          places = places == null ? placements(next, cluster) : places;
          Placement p = places.get(key);
          if (p != null) {
            waiting.put(cluster + "/" + key, new Ready(cluster, key, next.epoch(), next.createdAt(), p.locality(),
                p.alone()));
            seen.remove(cluster + "/" + key);
          }
        }
      }
      was.keySet().forEach(gone -> waiting.remove(cluster + "/" + gone));
    });
  }

  private static String key(EndpointSpec e) {
    return e.address() + ":" + e.port();
  }

  private record Placement(Locality locality, boolean alone) {}

  /** Where the published assignment of {@code cluster} puts each endpoint, and whether alone there. */
  private static Map<String, Placement> placements(Snapshot snapshot, String cluster) {
    Map<String, Placement> out = new HashMap<>();
    var resources = snapshot.resources(XdsType.ENDPOINT);
    XdsResource r = resources == null ? null : resources.get(cluster);
    ClusterLoadAssignment cla = r == null ? null : assignment(r);
    if (cla == null) {
      return out;
    }
    for (LocalityLbEndpoints l : cla.getEndpointsList()) {
      Locality locality = new Locality(l.getLocality().getRegion(), l.getLocality().getZone(),
          l.getLocality().getSubZone());
      for (LbEndpoint e : l.getLbEndpointsList()) {
        SocketAddress a = e.getEndpoint().getAddress().getSocketAddress();
        out.put(a.getAddress() + ":" + a.getPortValue(), new Placement(locality, l.getLbEndpointsCount() == 1));
      }
    }
    return out;
  }

  /** A snapshot read back from the store holds its resources packed. */
  private static ClusterLoadAssignment assignment(XdsResource r) {
    try {
      return r.hasContent() ? r.content(ClusterLoadAssignment.class) : null;
    } catch (IllegalStateException e) {
      return null;
    }
  }

  /** Finds, per waiting endpoint, the first closed interval with requests issued to it. */
  private void look(Instant closed) {
    Map<String, List<Ready>> clusters = new TreeMap<>();
    waiting.values().forEach(r -> clusters.computeIfAbsent(r.cluster(), k -> new ArrayList<>()).add(r));
    FleetLoad once = load.oneRead();
    clusters.forEach((cluster, ready) -> {
      Instant since = ready.stream().map(Ready::readyAt).min(Comparator.naturalOrder()).orElseThrow();
      ClusterLoad rows = once.load(cluster, since.minus(load.interval()));
      for (Ready r : ready) {
        LoadView.Readiness found = firstTraffic(r, rows, closed);
        if (found != null) {
          waiting.remove(cluster + "/" + r.endpoint());
          seen.put(cluster + "/" + r.endpoint(), new Seen(cluster, found));
          observe(cluster, Duration.ofMillis(found.delayMs()));
        }
      }
    });
  }

  /**
   * The first interval closed by {@code closed} that ends after {@code r} became READY and shows
   * requests issued to it, as its delay; null while none does. Pure.
   */
  static LoadView.Readiness firstTraffic(Ready r, ClusterLoad rows, Instant closed) {
    LocalityLoad first = null;
    String basis = null;
    for (LocalityLoad row : rows.localities()) {
      Instant end = row.intervalStart().plus(rows.interval());
      if (row.issued() <= 0 || !end.isAfter(r.readyAt()) || end.isAfter(closed)
          || !row.locality().equals(r.locality())) {
        continue;
      }
      boolean own = row.endpoint().equals(r.endpoint());
      boolean alone = r.alone() && row.endpoint().isEmpty();
      if ((own || alone) && (first == null || row.intervalStart().isBefore(first.intervalStart()))) {
        first = row;
        basis = own ? LoadView.Readiness.ENDPOINT : LoadView.Readiness.LOCALITY;
      }
    }
    if (first == null) {
      return null;
    }
    Instant end = first.intervalStart().plus(rows.interval());
    long delay = Math.max(0, Duration.between(r.readyAt(), end).toMillis());
    return new LoadView.Readiness(r.endpoint(), r.epoch(), r.readyAt(), end, delay, basis);
  }

  private void observe(String cluster, Duration delay) {
    if (registry == null) {
      return;
    }
    String name = namedClusters.contains(cluster) || namedClusters.size() < LoadSeries.MAX_CLUSTERS
        ? cluster : LoadSeries.OTHER;
    if (!name.equals(LoadSeries.OTHER)) {
      namedClusters.add(cluster);
    }
    Timer.builder("signalbox_load_first_traffic")
        .description("from the epoch that made an endpoint READY to the end of the first reporting interval whose "
            + "load reports show requests issued to it (an upper bound; resolution the reporting interval)")
        .tag("cluster", name)
        .serviceLevelObjectives(BUCKETS)
        .register(registry).record(delay);
  }

  private void publish() {
    Map<String, List<LoadView.Readiness>> out = new TreeMap<>();
    seen.values().forEach(s -> out.computeIfAbsent(s.cluster(), c -> new ArrayList<>()).add(s.readiness()));
    waiting.values().forEach(r -> out.computeIfAbsent(r.cluster(), c -> new ArrayList<>())
        .add(new LoadView.Readiness(r.endpoint(), r.epoch(), r.readyAt(), null, null, null)));
    out.replaceAll((k, v) -> List.copyOf(v));
    byCluster = Map.copyOf(out);
  }
}
