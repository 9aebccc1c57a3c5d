package io.signalbox.controlplane.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the fleet's clients report about the traffic they send (LRS), summed over every client and
 * every replica: the one read side for the API, CLI, dashboard, metrics and drains. Figures are per
 * completed interval, so a new report shows after the interval it arrived in closes (at most two
 * intervals later). Every answer is an immutable value; none waits on a client.
 *
 * <p>Only clusters with {@code loadReporting: true} are reported by gRPC clients; Envoy reports the
 * clusters its bootstrap's {@code load_stats_config} covers (see {@code docs/telemetry.md}).
 */
public interface FleetLoad {

  /** The reporting interval clients are told ({@code xds.loadReportingInterval}). */
  Duration interval();

  /** How long rows are kept; at least 15 minutes. */
  Duration retention();

  /** The clusters with any row or reporting client within the retention, sorted. */
  List<String> clusters();

  /**
   * {@code cluster}'s load in the completed intervals starting at or after {@code since} (clamped to
   * the retention), with its reporting clients. Empty lists for a cluster nobody reports.
   */
  ClusterLoad load(String cluster, Instant since);

  /**
   * {@code cluster}'s demand over the fixed window read at {@code now} ({@link DemandWindow}): what
   * automatic shedding compares with the limit. Reads no client row this answer does not need.
   */
  default DemandWindow demand(String cluster, Instant now) {
    return DemandWindow.none(now, interval());
  }

  /**
   * Per client whose latest report named {@code cluster}: its work in {@code locality} (see {@link
   * ClientWork}), by node id. A client that reports nothing for the cluster is not listed: for a
   * drain, those are the clients where only the deadline can decide.
   */
  default List<ClientWork> work(String cluster, Locality locality) {
    return work(cluster, locality, "");
  }

  /**
   * As {@link #work(String, Locality)}, for one endpoint ({@code address:port}) of {@code locality}:
   * per client, the endpoint's own work where that client reports it (Envoy, answered with {@code
   * report_endpoint_granularity}, once it has reported the endpoint in its current run), else its
   * work in the whole locality, which bounds the endpoint's. {@code ""} is the locality.
   */
  List<ClientWork> work(String cluster, Locality locality, String endpoint);

  /**
   * This load, reading each client's figures at most once for all its answers: for a caller asking
   * about many clusters at once (a scrape, the status, a page), so that costs one read, not one per
   * cluster. Its client figures are those of its first answer; ask again for newer ones.
   */
  default FleetLoad oneRead() {
    return this;
  }

  /**
   * As {@link #oneRead()}, and every cluster's rows from {@code since} on are read at once when the
   * first cluster's are asked for: a question about any cluster from {@code since} or later is then
   * answered from that read (the scrape and the status ask about every cluster; one query each for
   * the load and drop rows instead of two per cluster). An earlier {@code since} reads that cluster alone.
   */
  default FleetLoad oneRead(Instant since) {
    return oneRead();
  }

  /** No reports at all: what a server without LRS (or a test) reads. */
  FleetLoad NONE = new FleetLoad() {
    @Override
    public Duration interval() {
      return Duration.ofSeconds(10);
    }

    @Override
    public Duration retention() {
      return Duration.ofHours(1);
    }

    @Override
    public List<String> clusters() {
      return List.of();
    }

    @Override
    public ClusterLoad load(String cluster, Instant since) {
      return new ClusterLoad(cluster, interval(), List.of(), List.of(), List.of());
    }

    @Override
    public List<ClientWork> work(String cluster, Locality locality, String endpoint) {
      return List.of();
    }
  };
}
