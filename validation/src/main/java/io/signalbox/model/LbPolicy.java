package io.signalbox.model;

/** Load-balancing policies a cluster may use; names match Envoy's {@code Cluster.LbPolicy}. */
public enum LbPolicy {
  ROUND_ROBIN,
  LEAST_REQUEST,
  RING_HASH,
  MAGLEV,
  RANDOM
}
