package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.admin.PrometheusText;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadSeriesTest {

  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  static final Duration TEN = Duration.ofSeconds(10);

  /** A clock a test moves. */
  static final class MovingClock extends Clock {
    volatile Instant now;

    MovingClock(Instant now) {
      this.now = now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final MovingClock clock = new MovingClock(T0);
  final FakeFleetLoad fleet = new FakeFleetLoad(TEN);
  final LoadSeries metrics = new LoadSeries(fleet, () -> java.util.Set.of("quiet"), clock);

  static LocalityLoad row(int interval, String zone, long issued, long succeeded, long errored, long inFlight) {
    return new LocalityLoad(T0.plus(TEN.multipliedBy(interval)), "web", new Locality("", zone, ""), "", issued,
        succeeded, errored, inFlight);
  }

  PrometheusText.Exposition scrape() {
    metrics.refresh();
    return PrometheusText.parse(registry.scrape());
  }

  @Test
  void countersAddEachClosedIntervalOncePerClusterAndLocalityAndGaugesShowTheLastOne() {
    metrics.bindTo(registry);
    fleet.row(row(0, "a", 10, 8, 2, 1)).row(row(0, "b", 10, 10, 0, 0))
        .row(new LocalityLoad(T0, "web", new Locality("", "a", ""), "10.0.0.1:80", 10, 8, 2, 1))
        .drop(new DropLoad(T0, "web", "signalbox_overload", 4))
        .client("web", new ReportingClient("web-1", "r1", T0.plusSeconds(9), T0));
    clock.now = T0.plusSeconds(5);
    // The interval has not closed: nothing counted yet.
    assertThat(scrape().samples("signalbox_load_issued_total")).isEmpty();

    clock.now = T0.plusSeconds(12);
    scrape();
    fleet.row(row(1, "a", 5, 5, 0, 3));
    clock.now = T0.plusSeconds(21);
    PrometheusText.Exposition text = scrape();

    assertThat(text.value("signalbox_load_issued_total", Map.of("cluster", "web", "locality", "a"))).isEqualTo(15);
    assertThat(text.value("signalbox_load_requests_total", Map.of("cluster", "web", "locality", "a",
        "result", "errored"))).isEqualTo(2);
    assertThat(text.value("signalbox_load_requests_total", Map.of("cluster", "web", "locality", "b",
        "result", "succeeded"))).isEqualTo(10);
    assertThat(text.value("signalbox_load_dropped_total", Map.of("cluster", "web", "category",
        "signalbox_overload"))).isEqualTo(4);
    assertThat(text.value("signalbox_load_in_flight", Map.of("cluster", "web", "locality", "a"))).isEqualTo(3);
    assertThat(text.value("signalbox_load_reporting_clients", Map.of("cluster", "web"))).isEqualTo(1);
    assertThat(text.value("signalbox_load_clients_stopped", Map.of("cluster", "web"))).isZero();
    assertThat(text.value("signalbox_load_correlated_errors", Map.of("cluster", "web"))).isZero();
    assertThat(text.value("signalbox_load_skew", Map.of("cluster", "web"))).isEqualTo(1.0);
    // A cluster that opted in and has no report yet still has its alert's series.
    assertThat(text.value("signalbox_load_correlated_errors", Map.of("cluster", "quiet"))).isZero();
    assertThat(text.value("signalbox_load_reporting_clients", Map.of("cluster", "quiet"))).isZero();
    // Never a node id in a label.
    assertThat(registry.scrape()).doesNotContain("web-1");
  }

  @Test
  void localitiesPastTheLimitAreCountedAsOther() {
    metrics.bindTo(registry);
    for (int i = 0; i < LoadSeries.MAX_LOCALITIES + 5; i++) {
      fleet.row(row(0, "z" + i, 1, 1, 0, 0));
    }
    clock.now = T0.plusSeconds(11);
    PrometheusText.Exposition text = scrape();

    assertThat(text.samples("signalbox_load_issued_total")).hasSize(LoadSeries.MAX_LOCALITIES + 1);
    assertThat(text.value("signalbox_load_issued_total", Map.of("cluster", "web", "locality", "other")))
        .isEqualTo(5);
  }

  @Test
  void aClientSilentForThreeIntervalsCountsAsStopped() {
    metrics.bindTo(registry);
    fleet.client("web", new ReportingClient("web-1", "r1", T0, T0))
        .client("web", new ReportingClient("web-2", "r1", T0.plusSeconds(30), T0));
    clock.now = T0.plusSeconds(31);
    PrometheusText.Exposition text = scrape();

    assertThat(text.value("signalbox_load_clients_stopped", Map.of("cluster", "web"))).isEqualTo(1);
    assertThat(text.value("signalbox_load_reporting_clients", Map.of("cluster", "web"))).isEqualTo(1);
  }
}
