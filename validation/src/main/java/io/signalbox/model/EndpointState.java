package io.signalbox.model;

/**
 * Where an endpoint is in its lifecycle. Only {@link #READY} and {@link #DEGRADED} endpoints may be
 * given new work; see {@code docs/architecture.md} for how each state reaches Envoy.
 */
public enum EndpointState {
  /** Known, not yet eligible for new work. */
  WARMING,
  /** Eligible for new work. */
  READY,
  /** Serves only when healthy capacity is short. */
  DEGRADED,
  /** No new work; existing work finishes. */
  DRAINING,
  /** Out for a bounded time, then back through WARMING. */
  EJECTED;

  /** Whether a load balancer may assign new work to an endpoint in this state. */
  public boolean eligible() {
    return this == READY || this == DEGRADED;
  }
}
