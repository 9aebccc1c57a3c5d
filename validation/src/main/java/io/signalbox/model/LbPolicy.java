package io.signalbox.model;

/** Load-balancing policies a cluster may use; names match Envoy's {@code Cluster.LbPolicy}, but for {@link #WEIGHTED_ROUND_ROBIN}. */
public enum LbPolicy {
  ROUND_ROBIN,
  LEAST_REQUEST,
  RING_HASH,
  MAGLEV,
  RANDOM,
  /**
   * Client-side weighted round robin: weights from the endpoints' ORCA load reports (Envoy's and
   * grpc-xds's {@code client_side_weighted_round_robin}); sent as {@code load_balancing_policy}.
   */
  WEIGHTED_ROUND_ROBIN
}
