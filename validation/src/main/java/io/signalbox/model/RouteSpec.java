package io.signalbox.model;

import java.time.Duration;
import java.util.List;

/**
 * One route: a match and exactly one destination, either {@code cluster} or
 * {@code weightedClusters} (the validator enforces "exactly one").
 *
 * @param timeout null for Envoy's default
 */
public record RouteSpec(
    RouteMatchSpec match, String cluster, List<WeightedClusterSpec> weightedClusters, Duration timeout) {
  public RouteSpec {
    weightedClusters = weightedClusters == null ? List.of() : List.copyOf(weightedClusters);
  }
}
