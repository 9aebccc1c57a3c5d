package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore.LoadRow;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/**
 * A cluster's demand over one fixed window (issue 41): the requests its clients issued, plus those
 * dropped as {@code signalbox_overload}, each report spread over the time it covers ({@link
 * DemandSpread}), summed over every replica, divided by the window's length. Never by the span of
 * the intervals that happen to hold data: a window with less data reads less, never more.
 *
 * <p>The window is the {@value #INTERVALS} aligned intervals that end one interval before the
 * interval now open, read from the middle of an interval on ({@link #end}): a report covering the
 * tail of an interval arrives up to one interval after it, so those intervals have every steady
 * report they will get. Its demand is {@link #settled()} once the reports in it cover at least
 * {@value #SETTLED_PERCENT} % of the window for every client that reported during it (its latest
 * report arrived at or after the window's start) and whose latest report names the cluster: after a server restart with no history, a client's first report,
 * or a client back from an outage, the window is partly empty until it has slid past the gap, and
 * a partly empty window can only under-read. A client cut off from every replica counts too: its
 * missing reports leave the window unsettled instead of reading its share as zero.
 *
 * @param rps requests per second over the window
 * @param coverage the share of the window the clients' reports cover (client-time covered over
 *     {@code clients} × the window), 0 with no client
 * @param clients the clients whose latest report names the cluster and arrived at or after {@code from}
 * @param from the window's start
 * @param to the window's end (exclusive)
 */
public record DemandWindow(double rps, double coverage, int clients, Instant from, Instant to) {

  /** The window's length in reporting intervals. */
  public static final int INTERVALS = 5;
  /** The coverage from which demand is used, in percent. */
  public static final int SETTLED_PERCENT = 90;
  /** Intervals a replica keeps per cluster: the window, the interval of lag, the one just closed, the open one, one spare. */
  static final int BUCKETS = INTERVALS + 4;
  /**
   * The endpoint a demand row is stored under ({@code load_intervals}, locality all empty): an
   * endpoint a client reports is always {@code address:port}, so no report can make this one.
   * {@code issued} holds the requests × 1000, {@code succeeded} the client-milliseconds covered.
   */
  static final String ROW = "demand";
  /** What {@code reconcile.AutomaticDrops} calls its category, added back to demand (the drop must not hide what it sheds). */
  static final String SHED_CATEGORY = "signalbox_overload";

  /** Whether the window's demand can be acted on (see the class comment). */
  public boolean settled() {
    return clients > 0 && coverage * 100 >= SETTLED_PERCENT;
  }

  /** The window read at {@code now}: its end is an interval before the start of the interval open half an interval ago. */
  public static Instant end(Instant now, Duration interval) {
    long i = interval.toMillis();
    long half = now.toEpochMilli() - i / 2;
    return Instant.ofEpochMilli(half - Math.floorMod(half, i) - i);
  }

  static Instant start(Instant now, Duration interval) {
    return end(now, interval).minus(interval.multipliedBy(INTERVALS));
  }

  static LoadRow row(Instant intervalStart, String replica, String cluster, double requests, long coveredMillis) {
    return new LoadRow(intervalStart, replica, cluster, "", "", "", ROW, Math.round(requests * 1000), coveredMillis,
        0, 0);
  }

  static boolean isDemand(LoadRow row) {
    return row.endpoint().equals(ROW);
  }

  /** The window at {@code now} from every replica's rows of the cluster (others are skipped). */
  static DemandWindow of(Collection<LoadRow> rows, int clients, Instant now, Duration interval) {
    Instant from = start(now, interval);
    Instant to = end(now, interval);
    long milliRequests = 0;
    long covered = 0;
    for (LoadRow r : rows) {
      if (isDemand(r) && !r.intervalStart().isBefore(from) && r.intervalStart().isBefore(to)) {
        milliRequests += r.issued();
        covered += r.succeeded();
      }
    }
    double windowMillis = interval.toMillis() * (double) INTERVALS;
    double coverage = clients == 0 ? 0 : covered / (clients * windowMillis);
    return new DemandWindow(milliRequests / windowMillis, coverage, clients, from, to);
  }

  /** No reports: what a server without LRS reads. */
  public static DemandWindow none(Instant now, Duration interval) {
    return new DemandWindow(0, 0, 0, start(now, interval), end(now, interval));
  }
}
