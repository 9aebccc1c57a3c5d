package io.signalbox.controlplane.telemetry;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A cluster's load over a window, summed over clients and replicas.
 *
 * @param localities per interval and locality (and endpoint), ordered by interval, then locality, then endpoint
 * @param drops per interval and category, ordered by interval, then category
 * @param clients the clients whose latest report named the cluster, by node id
 */
public record ClusterLoad(
    String cluster,
    Duration interval,
    List<LocalityLoad> localities,
    List<DropLoad> drops,
    List<ReportingClient> clients) {

  public ClusterLoad {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(interval, "interval");
    localities = List.copyOf(localities);
    drops = List.copyOf(drops);
    clients = List.copyOf(clients);
  }
}
