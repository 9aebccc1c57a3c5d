package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.telemetry.LoadView.Counts;
import io.signalbox.controlplane.telemetry.LoadView.Interval;
import io.signalbox.controlplane.telemetry.LoadView.Place;
import io.signalbox.controlplane.telemetry.LoadView.Reporter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadViewTest {

  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  static final Duration TEN = Duration.ofSeconds(10);

  static Interval interval(int index, Map<String, Counts> localities) {
    return new Interval(T0.plus(TEN.multipliedBy(index)), T0.plus(TEN.multipliedBy(index + 1)), localities,
        Map.of(), Map.of());
  }

  @Test
  void theCurrentFiguresAreTheNewestClosedIntervalWithSharesErrorRatesAndSkew() {
    Interval older = interval(0, Map.of("a", new Counts(10, 10, 0, 0)));
    Interval last = new Interval(T0.plus(TEN), T0.plus(TEN.multipliedBy(2)), Map.of(
        "a", new Counts(60, 54, 6, 2), "b", new Counts(30, 30, 0, 1), "c", new Counts(10, 0, 0, 10)),
        Map.of(), Map.of("signalbox_overload", 4L));
    // Still open at "now": half of its reports are missing, it is not shown.
    Interval open = interval(2, Map.of("a", new Counts(1, 1, 0, 0)));

    LoadView view = LoadView.of("web", TEN, List.of(open, last, older), List.of(), T0.plusSeconds(25));

    assertThat(view.from()).isEqualTo(T0.plus(TEN));
    assertThat(view.to()).isEqualTo(T0.plusSeconds(20));
    assertThat(view.localities()).containsExactly(
        new Place("a", 60, 54, 6, 2, 0.6, 0.1),
        new Place("b", 30, 30, 0, 1, 0.3, 0.0),
        new Place("c", 10, 0, 0, 10, 0.1, null));
    assertThat(view.endpoints()).isEmpty();
    assertThat(view.dropped()).containsExactly(Map.entry("signalbox_overload", 4L));
    // 60 of 100 over three localities: 1.8 times the mean.
    assertThat(view.skew()).isEqualTo(1.8);
    assertThat(view.skewOf()).isEqualTo("localities");
    assertThat(view.history()).extracting(LoadView.Point::start).containsExactly(T0, T0.plus(TEN));
    assertThat(view.history().get(1).issued()).containsExactly(Map.entry("a", 60L), Map.entry("b", 30L),
        Map.entry("c", 10L));
    assertThat(view.history().get(1).errored()).containsEntry("a", 6L);
  }

  @Test
  void endpointsWhenReportedAreWhatSkewAndCorrelationAreOf() {
    Interval last = new Interval(T0, T0.plus(TEN), Map.of("a", new Counts(40, 30, 10, 0)),
        Map.of("10.0.0.1:80", new Counts(20, 15, 5, 0), "10.0.0.2:80", new Counts(10, 5, 5, 0),
            "10.0.0.3:80", new Counts(10, 10, 0, 0)), Map.of());

    LoadView view = LoadView.of("web", TEN, List.of(last), List.of(), T0.plus(TEN));

    assertThat(view.skewOf()).isEqualTo("endpoints");
    assertThat(view.skew()).isEqualTo(1.5);
    assertThat(view.correlatedErrors().raised()).isFalse();
    assertThat(view.correlatedErrors().message()).isEqualTo("cluster 'web': 2 of 3 endpoints reporting at least 10 "
        + "finished requests err above 5 %, fewer than 75 %");
    assertThat(view.history().get(0).issued()).containsOnlyKeys("10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80");
  }

  @Test
  void mostLocalitiesErringAtOnceRaiseCorrelatedErrors() {
    Interval last = interval(0, Map.of("a", new Counts(20, 10, 10, 0), "b", new Counts(20, 10, 10, 0),
        "c", new Counts(20, 10, 10, 0), "d", new Counts(20, 20, 0, 0)));

    LoadView view = LoadView.of("web", TEN, List.of(last), List.of(), T0.plus(TEN));

    assertThat(view.correlatedErrors()).isEqualTo(new LoadView.Correlation(true, 4, List.of("a", "b", "c"),
        "cluster 'web': 3 of 4 localities reporting at least 10 finished requests err above 5 % at once (a, b, c): "
            + "look for a cause they share before ejecting them [load.correlated-errors]"));
  }

  @Test
  void aClientSilentForThreeIntervalsHasStoppedReportingAndIsListedFirst() {
    Instant now = T0.plusSeconds(100);
    List<Reporter> reporters = List.of(
        new Reporter("web-1", "r1", now.minusSeconds(5), false),
        new Reporter("web-2", "r2", now.minusSeconds(30), false),
        new Reporter("web-3", "r1", now.minusSeconds(31), false),
        new Reporter("web-4", "r2", now.minusSeconds(1), true));

    LoadView view = LoadView.of("web", TEN, List.of(), reporters, now);

    assertThat(view.clients()).extracting(r -> r.nodeId() + " " + r.stopped())
        .containsExactly("web-3 true", "web-4 true", "web-1 false", "web-2 false");
    assertThat(view.stopped()).containsExactly("web-3", "web-4");
  }

  @Test
  void nothingReportedYetIsAnEmptyViewNotAnError() {
    LoadView view = LoadView.of("web", TEN, List.of(), List.of(), T0);

    assertThat(view.from()).isNull();
    assertThat(view.localities()).isEmpty();
    assertThat(view.skew()).isNull();
    assertThat(view.correlatedErrors().raised()).isFalse();
    assertThat(view.history()).isEmpty();
  }

  @Test
  void intervalsOlderThanTheWindowAreLeftOut() {
    Interval old = interval(0, Map.of("a", new Counts(1, 1, 0, 0)));
    Interval recent = interval(90, Map.of("a", new Counts(2, 2, 0, 0)));

    LoadView view = LoadView.of("web", TEN, List.of(old, recent), List.of(), T0.plusSeconds(910));

    assertThat(view.history()).extracting(LoadView.Point::start).containsExactly(recent.start());
  }

  @Test
  void theFleetsRowsBecomeIntervalsWithReadableLocalitiesEndpointsApartAndNamedDrops() {
    FakeFleetLoad fleet = new FakeFleetLoad(TEN)
        .row(new LocalityLoad(T0, "web", new Locality("", "a", ""), "", 10, 9, 1, 2))
        .row(new LocalityLoad(T0, "web", new Locality("", "a", "priority-1"), "", 5, 5, 0, 0))
        .row(new LocalityLoad(T0, "web", Locality.NONE, "", 1, 1, 0, 0))
        .row(new LocalityLoad(T0, "web", new Locality("", "a", ""), "10.0.0.1:80", 10, 9, 1, 2))
        .row(new LocalityLoad(T0, "other", new Locality("", "a", ""), "", 99, 99, 0, 0))
        .drop(new DropLoad(T0, "web", DropLoad.UNCATEGORIZED, 3))
        .drop(new DropLoad(T0, "web", "signalbox_overload", 2))
        .client("web", new ReportingClient("web-1", "r1", T0.plusSeconds(9), T0));

    LoadView view = LoadView.of(fleet, "web", T0.plusSeconds(12));

    assertThat(view.localities()).extracting(Place::name).containsExactly("a", "a/priority-1", "(none)");
    assertThat(view.endpoints()).extracting(Place::name).containsExactly("10.0.0.1:80");
    assertThat(view.dropped()).containsExactly(Map.entry("signalbox_overload", 2L), Map.entry("uncategorized", 3L));
    assertThat(view.clients()).containsExactly(new Reporter("web-1", "r1", T0.plusSeconds(9), false));
    assertThat(view.to()).isEqualTo(T0.plus(TEN));
  }
}
