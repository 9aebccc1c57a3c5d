package io.signalbox.controlplane.telemetry;

import io.signalbox.store.LoadReportStore.LoadRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One replica's demand per cluster and aligned interval, each report spread over the time it covers
 * (its {@code load_report_interval}) instead of counted in the interval it arrives in (issue 41).
 * A client reports every interval from its own start, so an aligned interval holds zero, one or two
 * of its reports; a client's first report covers however long its stats ran; a client back from an
 * outage (its own, the network's, the server's restart) reports everything since its last report
 * in one. Counted where they arrive, each of those reads as a burst: double the rate, or a minute of
 * calls in one interval. Spread over what they cover, each call falls into the interval it was made
 * in (to within the report's own uniformity), so no arrival pattern can read more than was sent.
 *
 * <p>Kept for the newest {@link DemandWindow#BUCKETS} intervals per cluster: a share older than
 * that is outside every window a reader asks about. A share before {@code notBefore} (this
 * aggregation's own first interval) is left out: a replica that restarts under the same id must not
 * replace the rows its previous run wrote for those intervals with a fraction of them. Owned by the
 * aggregation thread.
 */
final class DemandSpread {

  private final long intervalMillis;
  private final long notBefore;
  /** Per cluster id: a ring of {@link DemandWindow#BUCKETS} intervals, by interval number modulo the ring. */
  private Ring[] rings = new Ring[8];

  private static final class Ring {
    final long[] interval = new long[DemandWindow.BUCKETS];
    final double[] requests = new double[DemandWindow.BUCKETS];
    final long[] coveredMillis = new long[DemandWindow.BUCKETS];
    final boolean[] dirty = new boolean[DemandWindow.BUCKETS];

    Ring() {
      Arrays.fill(interval, Long.MIN_VALUE);
    }
  }

  /** @param notBefore the start of the aggregation's first interval (aligned) */
  DemandSpread(long intervalMillis, long notBefore) {
    this.intervalMillis = intervalMillis;
    this.notBefore = notBefore;
  }

  /**
   * Spreads {@code requests} (issued plus dropped as {@code signalbox_overload}) evenly over
   * {@code [arrival − covered, arrival]}, and counts that span as covered by one client.
   *
   * @param coveredMillis the report's {@code load_report_interval}, at least 1
   */
  void add(int cluster, long arrivalMillis, long coveredMillis, long requests) {
    Ring ring = ring(cluster);
    long newest = Math.floorDiv(arrivalMillis, intervalMillis);
    long oldestKept = Math.max(newest - DemandWindow.BUCKETS + 1, Math.floorDiv(notBefore, intervalMillis));
    long from = arrivalMillis - coveredMillis;
    double perMilli = requests / (double) coveredMillis;
    for (long n = Math.max(Math.floorDiv(from, intervalMillis), oldestKept); n <= newest; n++) {
      long start = n * intervalMillis;
      long overlap = Math.min(arrivalMillis, start + intervalMillis) - Math.max(from, start);
      if (overlap <= 0) {
        continue;
      }
      int slot = (int) Math.floorMod(n, (long) DemandWindow.BUCKETS);
      if (ring.interval[slot] != n) {
        ring.interval[slot] = n;
        ring.requests[slot] = 0;
        ring.coveredMillis[slot] = 0;
      }
      ring.requests[slot] += perMilli * overlap;
      ring.coveredMillis[slot] += overlap;
      ring.dirty[slot] = true;
    }
  }

  private Ring ring(int cluster) {
    if (cluster >= rings.length) {
      rings = Arrays.copyOf(rings, Math.max(cluster + 1, rings.length * 2));
    }
    Ring ring = rings[cluster];
    if (ring == null) {
      ring = new Ring();
      rings[cluster] = ring;
    }
    return ring;
  }

  /**
   * The rows of every interval that changed since the last call, each with its whole sum so far (a
   * write replaces the row of the same replica, interval and cluster): the interval just closed,
   * the one open now, and older ones a catch-up report reached.
   */
  List<LoadRow> changed(String replica, IntFunction<String> clusterName) {
    List<LoadRow> rows = new ArrayList<>();
    for (int cluster = 0; cluster < rings.length; cluster++) {
      Ring ring = rings[cluster];
      if (ring == null) {
        continue;
      }
      for (int slot = 0; slot < DemandWindow.BUCKETS; slot++) {
        if (ring.dirty[slot]) {
          ring.dirty[slot] = false;
          rows.add(DemandWindow.row(java.time.Instant.ofEpochMilli(ring.interval[slot] * intervalMillis), replica,
              clusterName.apply(cluster), ring.requests[slot], ring.coveredMillis[slot]));
        }
      }
    }
    return rows;
  }
}
