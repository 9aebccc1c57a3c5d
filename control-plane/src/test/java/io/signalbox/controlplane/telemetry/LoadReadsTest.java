package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.admin.PrometheusText;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.store.LoadReportStore.ClientLoadRow;
import io.signalbox.store.LoadReportStore.LoadRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What reading the load figures costs the store (issue 30): a scrape, the status or a page over
 * every cluster reads the client rows once, not once per cluster.
 */
class LoadReadsTest {

  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  static final Duration TEN = Duration.ofSeconds(10);

  final CountingLoadReports store = new CountingLoadReports();
  final LoadSeriesTest.MovingClock clock = new LoadSeriesTest.MovingClock(T0.plusSeconds(15));
  final LoadReporting reporting = new LoadReporting(clock, TEN, "r1", store, () -> null, new SimpleMeterRegistry());
  final FleetLoad load = reporting.fleetLoad();

  @AfterEach
  void close() {
    reporting.close();
  }

  static String cluster(int i) {
    return String.format("c%02d", i);
  }

  /** {@code clients} clients each reporting {@code clusters} clusters in zone a, one request in flight in each. */
  void fleet(int clients, int clusters) {
    List<LoadRow> loads = new ArrayList<>();
    List<ClientLoadRow> rows = new ArrayList<>();
    IntStream.range(0, clusters).forEach(c -> loads.add(new LoadRow(T0, "r1", cluster(c), "", "a", "", "", clients,
        clients, 0, clients)));
    String names = IntStream.range(0, clusters).mapToObj(c -> cluster(c) + "\n").collect(Collectors.joining());
    String work = IntStream.range(0, clusters).mapToObj(c -> cluster(c) + "\t\ta\t\t\t1\t0\n")
        .collect(Collectors.joining());
    IntStream.range(0, clients).forEach(n -> rows.add(new ClientLoadRow("node-" + n, "r1", T0.plusSeconds(9), T0,
        names, work)));
    store.write(loads, List.of(), rows);
  }

  @Test
  void aScrapeReadsTheClientRowsOnceWhateverTheNumberOfClusters() {
    fleet(40, 30);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LoadSeries series = new LoadSeries(load, Set::of, clock);
    series.bindTo(registry);

    store.clientReads.set(0);
    store.clusterReads.set(0);
    series.refresh();

    assertThat(store.clientReads).hasValue(1);
    assertThat(store.clusterReads).hasValue(1);
    // The load and drop rows of all 30 clusters: one read each, none per cluster.
    assertThat(store.allRowReads).hasValue(2);
    assertThat(store.rowReads).hasValue(0);
    PrometheusText.Exposition text = PrometheusText.parse(registry.scrape());
    for (int c = 0; c < 30; c++) {
      assertThat(text.value("signalbox_load_reporting_clients", Map.of("cluster", cluster(c)))).isEqualTo(40);
      assertThat(text.value("signalbox_load_in_flight", Map.of("cluster", cluster(c), "locality", "a")))
          .isEqualTo(40);
    }
  }

  @Test
  void theStatusReadsTheClientRowsOnceForEveryCluster() {
    fleet(10, 50);

    store.clientReads.set(0);
    store.clusterReads.set(0);
    assertThat(LoadView.correlatedErrorsOf(load, clock.instant())).isEmpty();

    assertThat(store.clientReads).hasValue(1);
    assertThat(store.clusterReads).hasValue(1);
    assertThat(store.allRowReads).hasValue(2);
    assertThat(store.rowReads).hasValue(0);
  }

  @Test
  void eachQuestionOutsideOneReadSeesRowsWrittenSince() {
    fleet(3, 2);
    assertThat(LoadView.of(load, "c01", clock.instant()).clients()).hasSize(3);

    store.write(List.of(), List.of(), List.of(new ClientLoadRow("node-late", "r1", T0.plusSeconds(12), T0,
        "c01\n", "c01\t\ta\t\t\t0\t0\n")));

    assertThat(LoadView.of(load, "c01", clock.instant()).clients()).extracting(LoadView.Reporter::nodeId)
        .containsExactly("node-0", "node-1", "node-2", "node-late");
    assertThat(LoadView.of(load, "c00", clock.instant()).clients()).hasSize(3);
  }

  @Test
  void aQuestionFromBeforeTheReadOfEveryClusterReadsItsClusterAloneWithTheSameFigures() {
    fleet(2, 3);
    store.write(List.of(new LoadRow(T0.minusSeconds(600), "r1", "c01", "", "a", "", "", 5, 5, 0, 0)), List.of(),
        List.of());
    Instant since = T0.minusSeconds(300);
    FleetLoad once = load.oneRead(since);

    var recent = once.load("c01", since);
    var older = once.load("c01", T0.minusSeconds(900));

    assertThat(store.allRowReads).hasValue(2);
    assertThat(store.rowReads).hasValue(2);
    assertThat(recent.localities()).singleElement().satisfies(l -> assertThat(l.intervalStart()).isEqualTo(T0));
    assertThat(older.localities()).extracting(l -> l.intervalStart())
        .containsExactly(T0.minusSeconds(600), T0);
    assertThat(once.load("c01", T0)).isEqualTo(load.load("c01", T0));
  }
}
