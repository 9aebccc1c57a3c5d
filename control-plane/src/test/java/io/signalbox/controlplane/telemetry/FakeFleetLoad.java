package io.signalbox.controlplane.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** A {@link FleetLoad} holding the rows a test adds, answering as the real one does: by interval start. */
final class FakeFleetLoad implements FleetLoad {

  private final Duration interval;
  private final List<LocalityLoad> rows = new ArrayList<>();
  private final List<DropLoad> drops = new ArrayList<>();
  private final List<ReportingClient> clients = new ArrayList<>();
  private final List<String> clientClusters = new ArrayList<>();

  FakeFleetLoad(Duration interval) {
    this.interval = interval;
  }

  synchronized FakeFleetLoad row(LocalityLoad row) {
    rows.add(row);
    return this;
  }

  synchronized FakeFleetLoad drop(DropLoad drop) {
    drops.add(drop);
    return this;
  }

  synchronized FakeFleetLoad client(String cluster, ReportingClient client) {
    clients.add(client);
    clientClusters.add(cluster);
    return this;
  }

  @Override
  public Duration interval() {
    return interval;
  }

  @Override
  public Duration retention() {
    return Duration.ofMinutes(15);
  }

  @Override
  public synchronized List<String> clusters() {
    TreeSet<String> names = new TreeSet<>(clientClusters);
    rows.forEach(r -> names.add(r.cluster()));
    drops.forEach(d -> names.add(d.cluster()));
    return List.copyOf(names);
  }

  @Override
  public synchronized ClusterLoad load(String cluster, Instant since) {
    List<ReportingClient> reporting = new ArrayList<>();
    for (int i = 0; i < clients.size(); i++) {
      if (clientClusters.get(i).equals(cluster)) {
        reporting.add(clients.get(i));
      }
    }
    return new ClusterLoad(cluster, interval,
        rows.stream().filter(r -> r.cluster().equals(cluster) && !r.intervalStart().isBefore(since)).toList(),
        drops.stream().filter(d -> d.cluster().equals(cluster) && !d.intervalStart().isBefore(since)).toList(),
        reporting);
  }

  @Override
  public List<ClientWork> work(String cluster, Locality locality, String endpoint) {
    return List.of();
  }
}
