package io.signalbox.bench;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The load reports a simulated client sends, shaped as grpc-java's {@code LoadReportClient} and
 * {@code LoadStatsManager2} send them: the node on every request (the first one carries nothing
 * else), one {@code ClusterStats} per cluster with its own {@code load_report_interval} (the time
 * since that cluster's previous report), per locality issued / succeeded / errored / in progress,
 * and drops per category with their total where the assignment drops. No named backend metrics:
 * grpc-java sends them only with {@code lrs_report_endpoint_metrics}, which Signalbox does not set.
 *
 * <p>The traffic is synthetic but plausible and a pure function of (seed, client, report number,
 * cluster, locality), so two runs send the same bytes and a test can state what a client sends.
 *
 * @param clusters the clusters the client subscribes to, in the order they are reported
 * @param localities the localities of every cluster's assignment (the workload puts every cluster's
 *     endpoints in the same zones)
 * @param drops per cluster, the drop categories its assignment names ({@code drop_overloads}); a
 *     cluster absent here drops nothing and reports no drop fields, as grpc-java
 */
record LoadReports(List<String> clusters, List<Locality> localities, Map<String, List<String>> drops, long seed) {

  /** Requests a locality is sent per report, at most: a busy but ordinary client. */
  static final int MAX_ISSUED = 200;
  /** Calls still running at a report, at most. */
  static final int MAX_IN_PROGRESS = 4;

  LoadReports {
    clusters = List.copyOf(clusters);
    localities = List.copyOf(localities);
    drops = Map.copyOf(drops);
  }

  /** The stream's opening request: the node and no stats, before the server has said the interval. */
  static LoadStatsRequest opening(Node node) {
    return LoadStatsRequest.newBuilder().setNode(node).build();
  }

  /**
   * Report number {@code report} (0 for the first after the server's answer) of client {@code
   * client}, covering {@code elapsedNanos} since the previous one.
   *
   * @param reported the clusters the server asked for: {@code null} for {@code send_all_clusters}
   */
  LoadStatsRequest report(Node node, int client, long report, long elapsedNanos, List<String> reported) {
    LoadStatsRequest.Builder request = LoadStatsRequest.newBuilder().setNode(node);
    for (int c = 0; c < clusters.size(); c++) {
      String cluster = clusters.get(c);
      if (reported != null && !reported.contains(cluster)) {
        continue;
      }
      ClusterStats.Builder stats = ClusterStats.newBuilder().setClusterName(cluster);
      for (int l = 0; l < localities.size(); l++) {
        SplittableRandom random = random(client, report, c, l);
        long issued = random.nextInt(MAX_ISSUED + 1);
        // About 1 % errors: the rest of what was issued finished well, apart from calls still running.
        long inProgress = Math.min(issued, random.nextInt(MAX_IN_PROGRESS + 1));
        long finished = issued - inProgress;
        long errored = finished == 0 ? 0 : random.nextInt((int) (finished / 50) + 1);
        stats.addUpstreamLocalityStats(UpstreamLocalityStats.newBuilder()
            .setLocality(localities.get(l))
            .setTotalIssuedRequests(issued)
            .setTotalSuccessfulRequests(finished - errored)
            .setTotalErrorRequests(errored)
            .setTotalRequestsInProgress(inProgress));
      }
      List<String> categories = drops.getOrDefault(cluster, List.of());
      long dropped = 0;
      for (int d = 0; d < categories.size(); d++) {
        long count = random(client, report, c, localities.size() + d).nextInt(10);
        dropped += count;
        stats.addDroppedRequests(ClusterStats.DroppedRequests.newBuilder()
            .setCategory(categories.get(d)).setDroppedCount(count));
      }
      request.addClusterStats(stats.setTotalDroppedRequests(dropped)
          .setLoadReportInterval(Durations.fromNanos(elapsedNanos)));
    }
    return request.build();
  }

  private SplittableRandom random(int client, long report, int cluster, int slot) {
    long key = seed;
    for (long part : new long[] {client, report, cluster, slot}) {
      key = new SplittableRandom(key ^ part).nextLong();
    }
    return new SplittableRandom(key);
  }
}
