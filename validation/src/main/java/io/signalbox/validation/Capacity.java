package io.signalbox.validation;

import io.signalbox.model.EndpointSpec;
import java.util.List;

/**
 * Counting what a cluster can serve with. Pure, so the reconciler can compare this epoch's count
 * with the previous epoch's to decide whether to hold a change (DESIGN §6 "Drains and guards").
 */
public final class Capacity {

  private Capacity() {}

  /** Endpoints a load balancer may give new work to (READY or DEGRADED); nulls count as none. */
  public static int eligibleCount(List<EndpointSpec> endpoints) {
    if (endpoints == null) {
      return 0;
    }
    int count = 0;
    for (EndpointSpec endpoint : endpoints) {
      if (endpoint != null && endpoint.state() != null && endpoint.state().eligible()) {
        count++;
      }
    }
    return count;
  }
}
