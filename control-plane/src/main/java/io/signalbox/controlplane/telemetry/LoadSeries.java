package io.signalbox.controlplane.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The clients' load reports as Prometheus series, per cluster and locality, never per client: a
 * fleet of thousands of reporting clients stays a few series per cluster. Names are bounded too:
 * the first {@link #MAX_CLUSTERS} clusters and, per cluster, the first {@link #MAX_LOCALITIES}
 * localities and {@link #MAX_CATEGORIES} drop categories seen keep their name, later ones are
 * counted as {@code other} (first come keeps it, so a series never changes its meaning).
 *
 * <p>Every replica exports the fleet-wide figures (the telemetry package sums over replicas), so
 * a query takes the {@code max} over replicas, never the {@code sum}. Counters count the closed
 * intervals that ended after this process started, each once; refreshed before every scrape.
 */
public final class LoadSeries implements MeterBinder {

  static final int MAX_CLUSTERS = 100;
  static final int MAX_LOCALITIES = 20;
  static final int MAX_CATEGORIES = 10;
  static final String OTHER = "other";

  private final FleetLoad load;
  private final Supplier<Set<String>> optedIn;
  private final Clock clock;
  private MeterRegistry registry;
  private MultiGauge inFlight;
  private MultiGauge reporting;
  private MultiGauge stopped;
  private MultiGauge correlated;
  private MultiGauge skew;
  /** Guarded by this: per cluster, the end of the newest interval already counted. */
  private final Map<String, Instant> counted = new HashMap<>();
  /** Guarded by this: the label values handed out, per cluster. */
  private final Map<String, Set<String>> localities = new HashMap<>();
  private final Map<String, Set<String>> categories = new HashMap<>();
  private final Set<String> clusters = new HashSet<>();
  private final Instant started;

  /**
   * @param optedIn the served clusters with {@code loadReporting} on: they get their per-cluster
   *     gauges (0 reporting, no correlated errors) before the first report, so an alert on them has
   *     a series to watch from the start
   */
  public LoadSeries(FleetLoad load, Supplier<Set<String>> optedIn, Clock clock) {
    this.load = load;
    this.optedIn = optedIn;
    this.clock = clock;
    this.started = clock.instant();
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    inFlight = gauge(registry, "signalbox_load_in_flight", "requests in flight at the last closed interval's end, "
        + "summed over the reporting clients");
    reporting = gauge(registry, "signalbox_load_reporting_clients", "clients whose load reports for the cluster are "
        + "current");
    stopped = gauge(registry, "signalbox_load_clients_stopped", "clients that reported for the cluster in the last 15 "
        + "minutes and stopped");
    correlated = gauge(registry, "signalbox_load_correlated_errors", "1 while the last closed interval shows "
        + "correlated errors (most localities above 5 % errors), else 0");
    skew = gauge(registry, "signalbox_load_skew", "the largest share of the work issued to one locality (or endpoint) "
        + "over the mean share; 1 is even");
  }

  private static MultiGauge gauge(MeterRegistry registry, String name, String help) {
    return MultiGauge.builder(name).description(help).baseUnit(null).register(registry);
  }

  /** Recomputes the gauges and counts the intervals closed since the last call. Before each scrape. */
  public synchronized void refresh() {
    Instant now = clock.instant();
    List<MultiGauge.Row<?>> flight = new ArrayList<>();
    List<MultiGauge.Row<?>> current = new ArrayList<>();
    List<MultiGauge.Row<?>> gone = new ArrayList<>();
    List<MultiGauge.Row<?>> raised = new ArrayList<>();
    List<MultiGauge.Row<?>> skews = new ArrayList<>();
    Map<Tags, Double> flightByTags = new HashMap<>();
    // One read of every client's row, and one of every cluster's load and drop rows from the
    // earliest interval this scrape asks about, not a few reads per cluster (issue 30's cost). A
    // cluster never counted before counts from the start of this process, and reads that alone.
    Instant since = now.minus(LoadView.WINDOW);
    for (Instant after : counted.values()) {
      Instant from = after.minus(this.load.interval());
      since = from.isBefore(since) ? from : since;
    }
    FleetLoad load = this.load.oneRead(since);
    Set<String> names = new TreeSet<>(optedIn.get());
    names.addAll(load.clusters());
    for (String name : names) {
      String cluster = bounded(clusters, name, MAX_CLUSTERS);
      LoadView view = LoadView.of(load, name, now);
      for (LoadView.Place p : view.localities()) {
        flightByTags.merge(Tags.of("cluster", cluster, "locality", locality(name, cluster, p.name())),
            (double) p.inFlight(), Double::sum);
      }
      long stoppedClients = view.stopped().size();
      // Clusters folded into "other" would give one label several values: only named ones get gauges.
      if (!cluster.equals(OTHER)) {
        Tags tags = Tags.of("cluster", cluster);
        current.add(MultiGauge.Row.of(tags, view.clients().size() - stoppedClients));
        gone.add(MultiGauge.Row.of(tags, stoppedClients));
        raised.add(MultiGauge.Row.of(tags, view.correlatedErrors().raised() ? 1 : 0));
        if (view.skew() != null) {
          skews.add(MultiGauge.Row.of(tags, view.skew()));
        }
      }
      count(load, name, cluster, now);
    }
    flightByTags.forEach((tags, value) -> flight.add(MultiGauge.Row.of(tags, value)));
    inFlight.register(flight, true);
    reporting.register(current, true);
    stopped.register(gone, true);
    correlated.register(raised, true);
    skew.register(skews, true);
  }

  /**
   * Adds the rows of every interval that closed after the last one counted (and by {@code now}).
   * Endpoint rows are left out: they are part of their locality's, and per endpoint is not a label.
   */
  private void count(FleetLoad load, String name, String cluster, Instant now) {
    Instant after = counted.getOrDefault(name, started);
    ClusterLoad rows = load.load(name, after.minus(load.interval()));
    Instant newest = after;
    for (LocalityLoad row : rows.localities()) {
      Instant end = row.intervalStart().plus(rows.interval());
      if (!row.endpoint().isEmpty() || !end.isAfter(after) || end.isAfter(now)) {
        continue;
      }
      newest = end.isAfter(newest) ? end : newest;
      Tags tags = Tags.of("cluster", cluster, "locality", locality(name, cluster, LoadView.name(row.locality())));
      Counter.builder("signalbox_load_issued_total").description("requests the clients issued, per locality")
          .tags(tags).register(registry).increment(row.issued());
      Counter.builder("signalbox_load_requests_total").description("requests the clients finished, per locality "
          + "and result (succeeded, errored)").tags(tags.and("result", "succeeded")).register(registry)
          .increment(row.succeeded());
      Counter.builder("signalbox_load_requests_total").tags(tags.and("result", "errored")).register(registry)
          .increment(row.errored());
    }
    for (DropLoad d : rows.drops()) {
      Instant end = d.intervalStart().plus(rows.interval());
      if (!end.isAfter(after) || end.isAfter(now)) {
        continue;
      }
      newest = end.isAfter(newest) ? end : newest;
      String category = d.category().equals(DropLoad.UNCATEGORIZED) ? LoadView.UNCATEGORIZED : d.category();
      Counter.builder("signalbox_load_dropped_total").description("requests the clients dropped, per drop category")
          .tags("cluster", cluster, "category", bounded(categories.computeIfAbsent(name, k -> new HashSet<>()),
              category, MAX_CATEGORIES))
          .register(registry).increment(d.dropped());
    }
    counted.put(name, newest);
  }

  private String locality(String name, String cluster, String locality) {
    return cluster.equals(OTHER) ? OTHER
        : bounded(localities.computeIfAbsent(name, k -> new HashSet<>()), locality, MAX_LOCALITIES);
  }

  /** {@code value} itself while fewer than {@code max} values were handed out (or it was one), else {@code other}. */
  private static String bounded(Set<String> given, String value, int max) {
    if (given.contains(value)) {
      return value;
    }
    if (given.size() < max) {
      given.add(value);
      return value;
    }
    return OTHER;
  }
}
