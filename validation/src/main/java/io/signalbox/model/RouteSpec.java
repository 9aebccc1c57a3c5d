package io.signalbox.model;

import java.time.Duration;
import java.util.List;

/**
 * One route: a match and exactly one destination, either {@code cluster} or
 * {@code weightedClusters} (the validator enforces "exactly one").
 *
 * @param timeout null for Envoy's default
 * @param hashPolicy what to hash for RING_HASH / MAGLEV affinity, in order; empty for none
 * @param retryPolicy null for no retries
 * @param autoHostRewrite true: clients send the chosen endpoint's {@code hostname} as the
 *     authority (gRFC A81; grpc-java only from a server its bootstrap trusts); null for no rewrite
 */
public record RouteSpec(
    RouteMatchSpec match,
    String cluster,
    List<WeightedClusterSpec> weightedClusters,
    Duration timeout,
    List<HashPolicySpec> hashPolicy,
    RetryPolicySpec retryPolicy,
    Boolean autoHostRewrite) {
  public RouteSpec {
    weightedClusters = weightedClusters == null ? List.of() : List.copyOf(weightedClusters);
    hashPolicy = hashPolicy == null ? List.of() : List.copyOf(hashPolicy);
  }

  /** A route that leaves the authority alone: the shape before issue 44. */
  public RouteSpec(RouteMatchSpec match, String cluster, List<WeightedClusterSpec> weightedClusters, Duration timeout,
      List<HashPolicySpec> hashPolicy, RetryPolicySpec retryPolicy) {
    this(match, cluster, weightedClusters, timeout, hashPolicy, retryPolicy, null);
  }

  /** A route without traffic policy. */
  public RouteSpec(RouteMatchSpec match, String cluster, List<WeightedClusterSpec> weightedClusters, Duration timeout) {
    this(match, cluster, weightedClusters, timeout, List.of(), null, null);
  }

  /** Every cluster this route sends to. */
  public List<String> clusters() {
    if (cluster != null) {
      return List.of(cluster);
    }
    return weightedClusters.stream().filter(java.util.Objects::nonNull).map(WeightedClusterSpec::name)
        .filter(java.util.Objects::nonNull).toList();
  }
}
