package io.signalbox.controlplane.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What the admin API reads of the clients' load reports, as {@link LoadView} takes it: per cluster,
 * the fleet-wide intervals of the last {@link LoadView#WINDOW} (summed over clients and replicas)
 * and the clients that reported. Narrow on purpose: the telemetry package keeps and sums the
 * reports; this is the one place the admin side reads them through.
 */
public interface LoadFigures {

  /** None reported, ever: a server without load reporting. */
  LoadFigures NONE = new LoadFigures() {
    @Override
    public Set<String> clusters() {
      return Set.of();
    }

    @Override
    public Cluster cluster(String cluster, Instant since) {
      return new Cluster(Duration.ofSeconds(10), List.of(), List.of());
    }
  };

  /** One cluster's reports since a time. */
  record Cluster(Duration interval, List<LoadView.Interval> intervals, List<LoadView.Reporter> reporters) {
    public Cluster {
      intervals = List.copyOf(intervals);
      reporters = List.copyOf(reporters);
    }
  }

  /** Clusters with any report in the window. */
  Set<String> clusters();

  /** {@code cluster}'s intervals that ended after {@code since}, and every client that reported for it. */
  Cluster cluster(String cluster, Instant since);

  /** The view of {@code cluster} at {@code now}. */
  default LoadView view(String cluster, Instant now) {
    Cluster c = cluster(cluster, now.minus(LoadView.WINDOW));
    return LoadView.of(cluster, c.interval(), c.intervals(), c.reporters(), now);
  }
}
