package io.signalbox.model;

/**
 * Whether a cluster's clients are sent their own zone's endpoints first (issue 44 item 4). Off by
 * default: every client then gets the same assignment, as before the setting existed.
 */
public enum ZonePreference {
  /** Every client gets the cluster's endpoints as they are. */
  NONE,
  /**
   * A client whose node locality names a zone gets that zone's endpoints (by EndpointSlice hint,
   * else by the endpoint's own zone) at the highest priority and the rest as failover, while that
   * zone has at least the cluster's {@code minEligible} eligible endpoints; below that, it gets the
   * cluster as clients without a zone do ({@code validation/ZonePlan}).
   */
  SAME_ZONE
}
