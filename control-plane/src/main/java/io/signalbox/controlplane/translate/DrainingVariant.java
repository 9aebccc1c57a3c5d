package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.validation.DrainingAs;

/**
 * A {@link ClusterLoadAssignment} as a client that treats {@code DRAINING} as healthy must get it
 * for a drain to stop new work there (Armeria's xDS module keeps sending a DRAINING endpoint new
 * requests, issue 33): every DRAINING endpoint sent {@code UNHEALTHY}, or left out.
 *
 * <p>Left out, an endpoint's locality loses its weight and may empty; an emptied locality is left
 * out too and the priorities are renumbered densely, as {@link AssignmentTranslator} does for the
 * endpoints it omits (a skipped priority is refused as "sparse"), and a renumbered priority's
 * locality takes its new {@code priority-N} sub-zone.
 */
public final class DrainingVariant {

  private DrainingVariant() {}

  /**
   * {@code cla} with its DRAINING endpoints sent as {@code as} says; the very instance when it has
   * none or {@code as} is {@link DrainingAs#DRAINING}.
   */
  public static ClusterLoadAssignment of(ClusterLoadAssignment cla, DrainingAs as) {
    if (as == DrainingAs.DRAINING || !hasDraining(cla)) {
      return cla;
    }
    ClusterLoadAssignment.Builder out = cla.toBuilder().clearEndpoints();
    int lastPriority = -1;
    int emitted = -1;
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      LocalityLbEndpoints.Builder kept = locality.toBuilder().clearLbEndpoints();
      long weight = 0;
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        if (e.getHealthStatus() != HealthStatus.DRAINING) {
          kept.addLbEndpoints(e);
          weight += e.getLoadBalancingWeight().getValue();
        } else if (as == DrainingAs.UNHEALTHY) {
          kept.addLbEndpoints(e.toBuilder().setHealthStatus(HealthStatus.UNHEALTHY));
          weight += e.getLoadBalancingWeight().getValue();
        }
      }
      if (kept.getLbEndpointsCount() == 0) {
        continue;
      }
      if (locality.getPriority() != lastPriority) {
        lastPriority = locality.getPriority();
        emitted++;
      }
      if (as == DrainingAs.OMIT) {
        if (kept.getLbEndpointsCount() != locality.getLbEndpointsCount()) {
          // Only a locality that lost endpoints changes weight: an endpoint's own locality (ring hash
          // under loadReportingPerEndpoint) may carry its zone's weight, not its own.
          kept.setLoadBalancingWeight(uint32((int) Math.min(weight, 0xFFFF_FFFFL)));
        }
        if (emitted != locality.getPriority()) {
          AssignmentTranslator.placeAt(kept, locality, emitted);
        }
      }
      out.addEndpoints(kept);
    }
    return out.build();
  }

  private static boolean hasDraining(ClusterLoadAssignment cla) {
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        if (e.getHealthStatus() == HealthStatus.DRAINING) {
          return true;
        }
      }
    }
    return false;
  }
}
