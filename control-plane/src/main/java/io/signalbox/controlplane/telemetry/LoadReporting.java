package io.signalbox.controlplane.telemetry;

import io.grpc.BindableService;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.store.LoadReportStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One replica's load reporting: the LRS service to serve beside ADS, the aggregation that writes
 * its rows to the store, and the {@link FleetLoad} that reads every replica's rows back.
 */
public final class LoadReporting implements AutoCloseable {

  /** Rows older than this are deleted; the read side never looks further back. */
  public static final Duration RETENTION = Duration.ofHours(1);

  private final LoadAggregator aggregator;
  private final LoadReportService service;
  private final FleetLoad fleetLoad;
  private final LoadMetrics metrics;

  /**
   * @param served the snapshot clients are being served (read per report, cheap): reports naming a
   *     cluster or locality it does not hold are refused
   */
  public LoadReporting(Clock clock, Duration interval, String replica, LoadReportStore store,
      Supplier<Snapshot> served, MeterRegistry meters) {
    this(known(served), clock, interval, replica, store, meters);
  }

  /** As above, told directly which clusters and localities are served (tests without a snapshot). */
  static LoadReporting withKnown(Clock clock, Duration interval, String replica, LoadReportStore store,
      Supplier<KnownClusters> current, MeterRegistry meters) {
    return new LoadReporting(current, clock, interval, replica, store, meters);
  }

  private static Supplier<KnownClusters> known(Supplier<Snapshot> served) {
    AtomicReference<KnownClusters> known = new AtomicReference<>(KnownClusters.EMPTY);
    return () -> {
      Snapshot snapshot = served.get();
      KnownClusters last = known.get();
      if (snapshot == null || snapshot.epoch() == last.epoch()) {
        return last;
      }
      KnownClusters now = KnownClusters.of(snapshot);
      known.set(now);
      return now;
    };
  }

  private LoadReporting(Supplier<KnownClusters> current, Clock clock, Duration interval, String replica,
      LoadReportStore store, MeterRegistry meters) {
    this.metrics = new LoadMetrics(meters);
    this.aggregator = new LoadAggregator(clock, interval, RETENTION, replica, store, current, metrics);
    this.service = new LoadReportService(aggregator, interval);
    this.fleetLoad = new StoredFleetLoad(store, clock, interval, RETENTION);
    aggregator.start();
  }

  /** The LRS gRPC service, to be served on the xDS port behind its edge. */
  public BindableService service() {
    return service;
  }

  public FleetLoad fleetLoad() {
    return fleetLoad;
  }

  /** Refused report entries of {@code reason} on this replica (for tests and status). */
  double refused(String reason) {
    return metrics.refusedCount(reason);
  }

  @Override
  public void close() {
    aggregator.close();
  }
}
