package io.signalbox.controlplane.fleet;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.xds.XdsServer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Per node group gauges of the connected fleet, recomputed from {@link XdsServer#clients()} on
 * every scrape. Labelled by group only, never by node: a fleet of thousands stays a handful of
 * series, and groups beyond {@link #MAX_GROUPS} are folded into {@code other}.
 */
public final class FleetMetrics implements MeterBinder {

  public static final int MAX_GROUPS = 100;
  static final String OTHER = "other";

  private final XdsServer xds;
  private final Supplier<NavigableMap<Long, Instant>> epochTimes;
  private final Clock clock;
  private final List<Series> series = new ArrayList<>();

  private record Series(MultiGauge gauge, ToDoubleFunction<Fleet.Group> value) {}

  /** @param epochTimes creation times of recent epochs, to date lag in seconds ({@link FleetSampler}) */
  public FleetMetrics(XdsServer xds, Supplier<NavigableMap<Long, Instant>> epochTimes, Clock clock) {
    this.xds = xds;
    this.epochTimes = epochTimes;
    this.clock = clock;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    add(registry, "signalbox_clients", "connected xDS client streams", g -> g.clients());
    add(registry, "signalbox_clients_current", "clients fully holding the current epoch", g -> g.onCurrentEpoch());
    add(registry, "signalbox_clients_nacking", "clients whose latest NACK of some type is standing",
        g -> g.nacking());
    add(registry, "signalbox_client_lag_epochs_max", "largest epoch lag (current - held) in the group",
        g -> g.maxLagEpochs());
    add(registry, "signalbox_client_lag_epochs_mean", "mean epoch lag (current - held) in the group",
        Fleet.Group::meanLagEpochs);
    add(registry, "signalbox_client_lag_seconds_max",
        "longest time a client of the group has lacked an epoch, in seconds", Fleet.Group::maxLagSeconds);
  }

  private void add(MeterRegistry registry, String name, String help, ToDoubleFunction<Fleet.Group> value) {
    series.add(new Series(MultiGauge.builder(name).description(help).baseUnit(null).register(registry), value));
  }

  /**
   * Recomputes every group's row; groups that have gone are removed. Called before each scrape.
   * Lag in seconds is dated by the epochs the sampler has seen: a lower bound for a client behind
   * all of them. The fleet is read under no lock (on a replica it may wait for the store); only
   * replacing the rows is serialized.
   */
  public void refresh() {
    Snapshot current = xds.current();
    long epoch = current == null ? 0 : current.epoch();
    NavigableMap<Long, Instant> times = epochTimes.get();
    Instant now = clock.instant();
    Map<String, List<Fleet.ClientView>> byGroup = new TreeMap<>();
    for (var client : xds.clients()) {
      Fleet.ClientView v = Fleet.view(client, epoch, times, now);
      byGroup.computeIfAbsent(v.group(), g -> new ArrayList<>()).add(v);
    }
    List<Fleet.Group> groups = fold(byGroup);
    synchronized (this) {
      for (Series s : series) {
        s.gauge().register(groups.stream()
            .map(g -> MultiGauge.Row.of(Tags.of("group", g.group()), s.value().applyAsDouble(g)))
            .toList(), true);
      }
    }
  }

  /** The largest groups keep their name; the rest are summarized together as {@code other}. */
  static List<Fleet.Group> fold(Map<String, List<Fleet.ClientView>> byGroup) {
    List<Map.Entry<String, List<Fleet.ClientView>>> largest = byGroup.entrySet().stream()
        .sorted(Comparator.comparing((Map.Entry<String, List<Fleet.ClientView>> e) -> e.getValue().size()).reversed()
            .thenComparing(Map.Entry::getKey))
        .toList();
    List<Fleet.Group> rows = new ArrayList<>();
    List<Fleet.ClientView> rest = new ArrayList<>();
    for (int i = 0; i < largest.size(); i++) {
      if (i < MAX_GROUPS) {
        rows.add(Fleet.group(largest.get(i).getKey(), largest.get(i).getValue()));
      } else {
        rest.addAll(largest.get(i).getValue());
      }
    }
    if (!rest.isEmpty()) {
      rows.add(Fleet.group(OTHER, rest));
    }
    return rows;
  }
}
