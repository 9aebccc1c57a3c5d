package io.signalbox.store;

import java.time.Instant;
import java.util.List;

/**
 * Load reports (LRS) as every replica aggregates them: compact per-interval rows per cluster ×
 * locality (× endpoint) and per cluster × drop category, plus one row per reporting client with its
 * freshness and its latest work per locality. Each replica writes its own rows once per interval;
 * readers sum over replicas, so two replicas give one view. Rows older than the retention are
 * deleted by {@link #deleteBefore}.
 */
public interface LoadReportStore {

  /**
   * One replica's interval, in one transaction: its load and drop rows replace any row of the same
   * replica, interval and key (a retried write does not count twice), and its client rows replace
   * the row of the same node id and replica unless that row has a later report.
   */
  void write(List<LoadRow> loads, List<DropRow> drops, List<ClientLoadRow> clients);

  /**
   * Moves the last report of existing client rows forward, never back, leaving their clusters and
   * work as they are: what a replica writes for a client whose row would otherwise be written again
   * unchanged, a few bytes instead of the whole row. A row not found (deleted meanwhile, or never
   * written) is not created.
   *
   * @return how many rows it moved (or found already at that time); a row not found, or at a later
   *     report, is not counted
   */
  int touch(List<ClientFreshness> clients);

  /** {@code cluster}'s load rows of intervals starting at or after {@code since}, every replica's. */
  List<LoadRow> loads(String cluster, Instant since);

  /** {@code cluster}'s drop rows of intervals starting at or after {@code since}, every replica's. */
  List<DropRow> drops(String cluster, Instant since);

  /**
   * Every cluster's load rows of intervals starting at or after {@code since}, every replica's, by
   * cluster: one read for a caller that asks about every cluster at once (a scrape, the status).
   */
  List<LoadRow> loads(Instant since);

  /** Every cluster's drop rows of intervals starting at or after {@code since}, by cluster, as {@link #loads(Instant)}. */
  List<DropRow> drops(Instant since);

  /** Every client row whose last report is at or after {@code since}, every replica's. */
  List<ClientLoadRow> clients(Instant since);

  /** The clusters with a load or drop row of an interval starting at or after {@code since}. */
  List<String> clusters(Instant since);

  /**
   * Deletes load and drop rows of intervals before {@code cutoff}, and client rows whose last
   * report is before it.
   *
   * @return how many rows were deleted
   */
  int deleteBefore(Instant cutoff);

  /**
   * One cluster × locality (× endpoint) in one interval, as one replica aggregated it. Locality
   * parts and endpoint are empty strings, never null.
   */
  record LoadRow(Instant intervalStart, String replica, String cluster, String region, String zone, String subZone,
      String endpoint, long issued, long succeeded, long errored, long inFlight) {}

  /** One cluster's drops of one category in one interval, as one replica aggregated them. */
  record DropRow(Instant intervalStart, String replica, String cluster, String category, long dropped) {}

  /**
   * One reporting client on one replica, upserted by node id and replica: the replica its stream is on, its freshness, and its
   * work as the aggregation encodes it (opaque here: {@code telemetry.ClientRows} in control-plane).
   *
   * @param clusters the clusters its latest report named, one per line
   * @param work its latest in-flight count and idle start per cluster and locality, one per line
   */
  record ClientLoadRow(String nodeId, String replica, Instant lastReport, Instant reportingSince, String clusters,
      String work) {}

  /** A client row's freshness alone, by node id and replica: see {@link #touch}. */
  record ClientFreshness(String nodeId, String replica, Instant lastReport) {}
}
