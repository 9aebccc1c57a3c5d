package io.signalbox.controlplane.telemetry;

import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.validation.DrainProgress;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Load reports fed by hand: what each client says about each endpoint; silent unless told. */
final class FakeDrainLoads implements DrainLoads {

  private final Duration interval;
  private final Set<String> reporting = new HashSet<>();
  private final Map<EndpointRef, Map<String, DrainProgress.ClientLoad>> loads = new HashMap<>();

  FakeDrainLoads(Duration interval, String... reportingClusters) {
    this.interval = interval;
    reporting.addAll(Set.of(reportingClusters));
  }

  FakeDrainLoads says(String nodeId, EndpointRef endpoint, DrainProgress.ClientLoad load) {
    loads.computeIfAbsent(endpoint, e -> new HashMap<>()).put(nodeId, load);
    return this;
  }

  @Override
  public Duration interval() {
    return interval;
  }

  @Override
  public boolean reporting(String cluster) {
    return reporting.contains(cluster);
  }

  @Override
  public Map<String, DrainProgress.ClientLoad> loads(EndpointRef endpoint) {
    return loads.getOrDefault(endpoint, Map.of());
  }
}
