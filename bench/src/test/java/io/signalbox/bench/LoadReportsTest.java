package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a simulated client reports for its subscriptions, shaped as grpc-java's load reports. */
class LoadReportsTest {

  private static final Node NODE = AdsClient.node(7);
  private static final Workload WORKLOAD = new Workload(3, 6, 3);
  private static final List<String> CLUSTERS = List.of("cluster-00000", "cluster-00001", "cluster-00002");
  private static final long TEN_SECONDS = 10_000_000_000L;

  private final LoadReports reports = Fleet.reports(WORKLOAD, CLUSTERS, Scenario.LOAD_SEED);

  @Test
  void opensWithTheNodeAndNothingElse() {
    assertThat(LoadReports.opening(NODE)).isEqualTo(LoadStatsRequest.newBuilder().setNode(NODE).build());
  }

  @Test
  void reportsEverySubscribedClusterInEveryZoneWithTheElapsedInterval() {
    LoadStatsRequest report = reports.report(NODE, 7, 0, TEN_SECONDS + 3_000_000, null);

    assertThat(report.getNode()).isEqualTo(NODE);
    assertThat(report.getClusterStatsList()).extracting(ClusterStats::getClusterName).isEqualTo(CLUSTERS);
    for (ClusterStats cluster : report.getClusterStatsList()) {
      assertThat(cluster.getLoadReportInterval()).isEqualTo(Durations.fromNanos(10_003_000_000L));
      assertThat(cluster.getUpstreamLocalityStatsList()).extracting(UpstreamLocalityStats::getLocality)
          .containsExactly(zone("a"), zone("b"), zone("c"));
      assertThat(cluster.getTotalDroppedRequests()).isZero();
      assertThat(cluster.getDroppedRequestsList()).isEmpty();
      assertThat(cluster.getClusterServiceName()).isEmpty();
      for (UpstreamLocalityStats locality : cluster.getUpstreamLocalityStatsList()) {
        assertThat(locality.getTotalIssuedRequests()).isBetween(0L, (long) LoadReports.MAX_ISSUED);
        assertThat(locality.getTotalRequestsInProgress()).isBetween(0L, (long) LoadReports.MAX_IN_PROGRESS);
        assertThat(locality.getTotalSuccessfulRequests() + locality.getTotalErrorRequests()
            + locality.getTotalRequestsInProgress()).isEqualTo(locality.getTotalIssuedRequests());
        assertThat(locality.getTotalErrorRequests()).isLessThanOrEqualTo(locality.getTotalIssuedRequests() / 50);
        assertThat(locality.getLoadMetricStatsList()).isEmpty();
      }
    }
  }

  @Test
  void theSameClientReportNumberAndSeedSendTheSameTrafficAndOthersDiffer() {
    LoadStatsRequest first = reports.report(NODE, 7, 3, TEN_SECONDS, null);

    assertThat(Fleet.reports(WORKLOAD, CLUSTERS, Scenario.LOAD_SEED).report(NODE, 7, 3, TEN_SECONDS, null))
        .isEqualTo(first);
    assertThat(reports.report(NODE, 7, 4, TEN_SECONDS, null)).isNotEqualTo(first);
    assertThat(reports.report(NODE, 8, 3, TEN_SECONDS, null)).isNotEqualTo(first);
    assertThat(Fleet.reports(WORKLOAD, CLUSTERS, 31).report(NODE, 7, 3, TEN_SECONDS, null)).isNotEqualTo(first);
  }

  @Test
  void reportsOnlyTheClustersTheServerNamesWhenItDoesNotAskForAll() {
    LoadStatsRequest report = reports.report(NODE, 7, 0, TEN_SECONDS, List.of("cluster-00002", "cluster-09999"));

    assertThat(report.getClusterStatsList()).extracting(ClusterStats::getClusterName)
        .containsExactly("cluster-00002");
  }

  @Test
  void aClusterWhoseAssignmentDropsReportsEachCategoryAndTheirTotal() {
    LoadReports dropping = new LoadReports(CLUSTERS, List.of(zone("a")),
        Map.of("cluster-00001", List.of("throttle", "lb")), Scenario.LOAD_SEED);

    List<ClusterStats> stats = dropping.report(NODE, 7, 0, TEN_SECONDS, null).getClusterStatsList();

    assertThat(stats.get(0).getDroppedRequestsList()).isEmpty();
    ClusterStats drops = stats.get(1);
    assertThat(drops.getDroppedRequestsList()).extracting(ClusterStats.DroppedRequests::getCategory)
        .containsExactly("throttle", "lb");
    assertThat(drops.getTotalDroppedRequests()).isEqualTo(drops.getDroppedRequestsList().stream()
        .mapToLong(ClusterStats.DroppedRequests::getDroppedCount).sum());
  }

  @Test
  void theWorkloadsZonesAreTheLocalitiesItsAssignmentsName() {
    assertThat(WORKLOAD.endpointFile(0)).contains("127.0.0.1, port: 10000, zone: a,")
        .contains("127.0.0.2, port: 10000, zone: b,").contains("127.0.0.4, port: 10000, zone: a,");
    assertThat(new Workload(3, 6).endpointFile(0)).doesNotContain("zone: b");
  }

  @Test
  void theConfigTurnsLoadReportingOnForEveryClusterOnlyWhenAsked() {
    String on = WORKLOAD.config(1, 2, "memory", "100ms", "100ms", "10s");

    assertThat(on).contains("xds: { address: 127.0.0.1, port: 1, loadReportingInterval: 10s }\n")
        .endsWith("\nclusterDefaults: { loadReporting: true }\n");
    assertThat(WORKLOAD.config(1, 2, "memory", "100ms", "100ms"))
        .contains("xds: { address: 127.0.0.1, port: 1 }\n").doesNotContain("loadReporting");
  }

  @Test
  void sumsACountersSeriesFromTheMetricsText() {
    String metrics = """
        # TYPE signalbox_lrs_refused_total counter
        signalbox_lrs_refused_total{reason="unknown_cluster"} 2.0
        signalbox_lrs_refused_total{reason="absurd_value"} 3.0
        signalbox_lrs_reports_total 1200.0
        """;

    assertThat(LoadRun.metricSum(metrics, "signalbox_lrs_refused_total")).isEqualTo(5);
    assertThat(LoadRun.metricSum(metrics, "signalbox_lrs_reports_total")).isEqualTo(1200);
    assertThat(LoadRun.metricSum(metrics, "signalbox_lrs_reports")).isZero();
  }

  private static Locality zone(String zone) {
    return Locality.newBuilder().setZone(zone).build();
  }
}
