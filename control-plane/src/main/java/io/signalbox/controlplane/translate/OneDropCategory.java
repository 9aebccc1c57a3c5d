package io.signalbox.controlplane.translate;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.validation.ClientSupport;
import io.signalbox.validation.DropRules;

/**
 * A {@link ClusterLoadAssignment} as a client that honours one {@code drop_overloads} category
 * must get it ({@link ClientSupport#honoursOneDropCategory}: Envoy NACKs more): only the largest
 * category ({@link DropRules#largest}), at its own share. The operator's and the automatic drops
 * combine on the other clients as they apply categories in order; here the larger one stands alone,
 * and the status's client warnings say so.
 */
public final class OneDropCategory {

  private OneDropCategory() {}

  /** {@code cla} with only its largest drop category; the very instance when it has at most one. */
  public static ClusterLoadAssignment of(ClusterLoadAssignment cla) {
    if (cla.getPolicy().getDropOverloadsCount() <= 1) {
      return cla;
    }
    ClusterLoadAssignment.Policy.DropOverload kept = DropRules.largest(cla.getPolicy()).orElseThrow();
    return cla.toBuilder()
        .setPolicy(cla.getPolicy().toBuilder().clearDropOverloads().addDropOverloads(kept))
        .build();
  }
}
