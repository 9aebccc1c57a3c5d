package io.signalbox.controlplane.telemetry;

import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.CorrelatedErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One cluster's load as operators read it ({@code GET /api/v1/clusters/{cluster}/load}, {@code
 * signalbox load}, the dashboard): the newest closed reporting interval per locality (and per
 * endpoint where clients report it), each one's share of the work, the skew, the error rate, the
 * correlated-errors verdict, who reports and who stopped, and the last 15 minutes for the plot.
 * Computed here from the fleet-wide sums the telemetry package keeps; pure, so the same figures
 * come out of the API, the CLI, the dashboard and the metrics.
 *
 * @param at the time the view was computed
 * @param from start of the interval the current figures are of; null before any closed interval
 * @param to its end
 * @param localities per locality, most work first
 * @param endpoints per endpoint, most work first; empty when no client reports per endpoint
 * @param dropped requests the clients dropped in the interval, per category
 * @param skew the largest share over the mean share (1.0 is perfectly even), of endpoints when
 *     reported, else of localities; null when nothing was issued
 * @param stopped node ids of {@code clients} that stopped reporting
 * @param history every interval of the window, oldest first: what the share plot draws
 * @param firstTraffic per endpoint that became READY within the retention: how long until the load
 *     reports showed requests issued to it ({@link FirstTraffic}), or that they have not yet
 */
public record LoadView(String cluster, Instant at, long intervalSeconds, Instant from, Instant to,
    List<Place> localities, List<Place> endpoints, Map<String, Long> dropped, Double skew, String skewOf,
    Correlation correlatedErrors, List<Reporter> clients, List<String> stopped, List<Point> history,
    List<Readiness> firstTraffic) {

  /**
   * An endpoint that became READY in epoch {@code epoch}, published at {@code readyAt}, and the first
   * closed reporting interval (ending at {@code seenBy}) whose reports show requests issued to it.
   *
   * @param seenBy null while no report shows any
   * @param delayMs {@code seenBy - readyAt}, an upper bound with the reporting interval as its
   *     resolution; null while waiting
   * @param seenIn {@value #ENDPOINT} (a client's per-endpoint figures) or {@value #LOCALITY} (a
   *     locality holding only this endpoint); null while waiting
   */
  public record Readiness(String endpoint, long epoch, Instant readyAt, Instant seenBy, Long delayMs, String seenIn) {
    public static final String ENDPOINT = "endpoint";
    public static final String LOCALITY = "locality";
  }

  /** This view with {@code firstTraffic} as its readiness-to-first-traffic figures. */
  public LoadView withFirstTraffic(List<Readiness> readiness) {
    return new LoadView(cluster, at, intervalSeconds, from, to, localities, endpoints, dropped, skew, skewOf,
        correlatedErrors, clients, stopped, history, List.copyOf(readiness));
  }

  /** How long the history reaches back. */
  public static final Duration WINDOW = Duration.ofMinutes(15);
  /**
   * A client that sent nothing for this many intervals has stopped reporting: one missed report is
   * a late one (clients time their reports by their own clocks), three are not.
   */
  public static final int STOPPED_AFTER_INTERVALS = 3;

  /** Counts of one locality or endpoint in one interval, summed over clients and replicas. */
  public record Counts(long issued, long succeeded, long errored, long inFlight) {
    public static final Counts ZERO = new Counts(0, 0, 0, 0);

    public Counts plus(Counts o) {
      return new Counts(issued + o.issued, succeeded + o.succeeded, errored + o.errored, inFlight + o.inFlight);
    }
  }

  /**
   * One reporting interval of the cluster, summed over every client and replica: the input.
   *
   * @param endpoints empty when no client reported per endpoint
   */
  public record Interval(Instant start, Instant end, Map<String, Counts> localities, Map<String, Counts> endpoints,
      Map<String, Long> dropped) {
    public Interval {
      localities = Map.copyOf(localities);
      endpoints = Map.copyOf(endpoints);
      dropped = Map.copyOf(dropped);
    }
  }

  /** A client that reported load for the cluster, and when it last did: an input, and shown as it is. */
  public record Reporter(String nodeId, String replicaId, Instant lastReport, boolean stopped) {}

  /** One locality or endpoint in the current figures. */
  public record Place(String name, long issued, long succeeded, long errored, long inFlight, double share,
      Double errorRate) {}

  /** The correlated-errors verdict ({@link CorrelatedErrors}) on the current interval. */
  public record Correlation(boolean raised, int counted, List<String> erring, String message) {}

  /** One interval of the history: work issued and errored per locality (or endpoint, when reported). */
  public record Point(Instant start, Instant end, Map<String, Long> issued, Map<String, Long> errored) {}

  /** The view at {@code now} of what {@code load} holds of {@code cluster} over the {@link #WINDOW}. */
  public static LoadView of(FleetLoad load, String cluster, Instant now) {
    ClusterLoad c = load.load(cluster, now.minus(WINDOW));
    Map<Instant, Map<String, Counts>> localities = new TreeMap<>();
    Map<Instant, Map<String, Counts>> endpoints = new TreeMap<>();
    Map<Instant, Map<String, Long>> dropped = new TreeMap<>();
    for (LocalityLoad row : c.localities()) {
      Counts counts = new Counts(row.issued(), row.succeeded(), row.errored(), row.inFlight());
      // Envoy with endpoint granularity sends both a locality's rows and its endpoints'; gRPC the locality's alone.
      Map<Instant, Map<String, Counts>> into = row.endpoint().isEmpty() ? localities : endpoints;
      String name = row.endpoint().isEmpty() ? name(row.locality()) : row.endpoint();
      into.computeIfAbsent(row.intervalStart(), k -> new TreeMap<>()).merge(name, counts, Counts::plus);
    }
    for (DropLoad d : c.drops()) {
      dropped.computeIfAbsent(d.intervalStart(), k -> new TreeMap<>())
          .merge(d.category().equals(DropLoad.UNCATEGORIZED) ? UNCATEGORIZED : d.category(), d.dropped(), Long::sum);
    }
    java.util.Set<Instant> starts = new java.util.TreeSet<>(localities.keySet());
    starts.addAll(endpoints.keySet());
    starts.addAll(dropped.keySet());
    List<Interval> intervals = starts.stream().map(start -> new Interval(start, start.plus(c.interval()),
        localities.getOrDefault(start, Map.of()), endpoints.getOrDefault(start, Map.of()),
        dropped.getOrDefault(start, Map.of()))).toList();
    List<Reporter> reporters = c.clients().stream()
        .map(r -> new Reporter(r.nodeId(), r.replica(), r.lastReport(), false)).toList();
    return of(cluster, c.interval(), intervals, reporters, now);
  }

  /** Drops a client counted without a category (circuit breakers), as the view names them. */
  public static final String UNCATEGORIZED = "uncategorized";
  /** The locality of a client that sent none. */
  public static final String NO_LOCALITY = "(none)";

  /**
   * A locality as people read it: its non-empty parts joined by '/', so Signalbox's own localities
   * (a zone, and for priorities above 0 a sub-zone) read {@code a} and {@code a/priority-1}.
   */
  static String name(Locality locality) {
    String joined = java.util.stream.Stream.of(locality.region(), locality.zone(), locality.subZone())
        .filter(p -> !p.isEmpty()).collect(java.util.stream.Collectors.joining("/"));
    return joined.isEmpty() ? NO_LOCALITY : joined;
  }

  /**
   * The view at {@code now} of {@code intervals} (any order; those not yet closed at {@code now}
   * are left out, a half-filled interval would look like a drop in traffic).
   */
  public static LoadView of(String cluster, Duration interval, List<Interval> intervals, List<Reporter> reporters,
      Instant now) {
    Instant since = now.minus(WINDOW);
    List<Interval> closed = intervals.stream()
        .filter(i -> !i.end().isAfter(now) && i.end().isAfter(since))
        .sorted(Comparator.comparing(Interval::start))
        .toList();
    Interval last = closed.isEmpty() ? null : closed.get(closed.size() - 1);
    List<Place> localities = last == null ? List.of() : places(last.localities());
    List<Place> endpoints = last == null ? List.of() : places(last.endpoints());
    boolean perEndpoint = !endpoints.isEmpty();
    List<Place> finest = perEndpoint ? endpoints : localities;
    String kind = perEndpoint ? "endpoints" : "localities";

    List<CorrelatedErrors.Finished> finished = finest.stream()
        .map(p -> new CorrelatedErrors.Finished(p.name(), p.succeeded(), p.errored())).toList();
    CorrelatedErrors.Verdict verdict = CorrelatedErrors.of(cluster, kind, finished);
    Correlation correlation = new Correlation(verdict instanceof CorrelatedErrors.Correlated, verdict.counted(),
        verdict.raised(), verdict.message());

    List<Reporter> clients = reporters.stream()
        .map(r -> new Reporter(r.nodeId(), r.replicaId(), r.lastReport(), r.stopped()
            || stopped(r.lastReport(), interval, now)))
        .sorted(Comparator.comparing(Reporter::stopped).reversed().thenComparing(Reporter::nodeId))
        .toList();
    List<Point> history = closed.stream().map(i -> {
      Map<String, Counts> by = perEndpoint && !i.endpoints().isEmpty() ? i.endpoints() : i.localities();
      Map<String, Long> issued = new TreeMap<>();
      Map<String, Long> errored = new TreeMap<>();
      by.forEach((name, c) -> {
        issued.put(name, c.issued());
        errored.put(name, c.errored());
      });
      return new Point(i.start(), i.end(), issued, errored);
    }).toList();
    return new LoadView(cluster, now, interval.toSeconds(), last == null ? null : last.start(),
        last == null ? null : last.end(), localities, endpoints,
        last == null ? Map.of() : new TreeMap<>(last.dropped()), skew(finest), kind, correlation, clients,
        clients.stream().filter(Reporter::stopped).map(Reporter::nodeId).toList(), history, List.of());
  }

  /** True when nothing came from the client for {@link #STOPPED_AFTER_INTERVALS} intervals. */
  static boolean stopped(Instant lastReport, Duration interval, Instant now) {
    return lastReport == null || now.isAfter(lastReport.plus(interval.multipliedBy(STOPPED_AFTER_INTERVALS)));
  }

  private static List<Place> places(Map<String, Counts> counts) {
    long total = counts.values().stream().mapToLong(Counts::issued).sum();
    List<Place> out = new ArrayList<>();
    counts.forEach((name, c) -> {
      long finished = c.succeeded() + c.errored();
      out.add(new Place(name, c.issued(), c.succeeded(), c.errored(), c.inFlight(),
          total == 0 ? 0 : (double) c.issued() / total, finished == 0 ? null : (double) c.errored() / finished));
    });
    out.sort(Comparator.comparingLong(Place::issued).reversed().thenComparing(Place::name));
    return List.copyOf(out);
  }

  /**
   * Max over mean of the work issued: 1.0 is even, 2.0 means one place does twice its fair share.
   * Every place that reported counts, one that was sent no work too (its 0 is the point).
   */
  static Double skew(List<Place> places) {
    long total = places.stream().mapToLong(Place::issued).sum();
    if (total == 0) {
      return null;
    }
    long max = places.stream().mapToLong(Place::issued).max().orElse(0);
    return (double) max * places.size() / total;
  }

  /**
   * The clusters whose last interval raises correlated errors, as the status shows them: one
   * message each, naming the erring localities.
   */
  public static List<String> correlatedErrorsOf(FleetLoad fleet, Instant now) {
    FleetLoad load = fleet.oneRead(now.minus(LoadView.WINDOW));
    return load.clusters().stream()
        .map(c -> LoadView.of(load, c, now).correlatedErrors())
        .filter(LoadView.Correlation::raised)
        .map(LoadView.Correlation::message)
        .toList();
  }

  /**
   * The served clusters with {@code loadReporting} on, from the published view alone: no read of the
   * store (a scrape, which reads the reported ones itself, would otherwise read every client row twice).
   */
  public static java.util.Set<String> optedIn(PublishedView view) {
    if (view.snapshot() == null) {
      return java.util.Set.of();
    }
    java.util.TreeSet<String> names = new java.util.TreeSet<>();
    view.snapshot().resources(XdsType.CLUSTER).byName().keySet().stream()
        .filter(name -> view.clusters().apply(name).reportsLoad())
        .forEach(names::add);
    return names;
  }
}
