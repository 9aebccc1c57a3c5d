package io.signalbox.controlplane.reconcile;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Restores an older {@link ClusterLoadAssignment} without resurrecting anything (invariant 4): an
 * endpoint the current desired state no longer has stays gone, one that is now draining stays
 * draining, and one that is not eligible now is not offered; endpoints added since are left out
 * (they may be what was rejected).
 */
public final class EndpointRestore {
  private EndpointRestore() {}

  public static ClusterLoadAssignment restore(ClusterLoadAssignment older, List<EndpointSpec> current) {
    Map<String, EndpointState> now = new HashMap<>();
    for (EndpointSpec e : current) {
      now.put(key(e.address(), e.port()), e.state());
    }
    ClusterLoadAssignment.Builder out = older.toBuilder().clearEndpoints();
    for (LocalityLbEndpoints locality : older.getEndpointsList()) {
      LocalityLbEndpoints.Builder kept = locality.toBuilder().clearLbEndpoints();
      for (LbEndpoint lb : locality.getLbEndpointsList()) {
        var socket = lb.getEndpoint().getAddress().getSocketAddress();
        EndpointState state = now.get(key(socket.getAddress(), socket.getPortValue()));
        if (state == null || !(state.eligible() || state == EndpointState.DRAINING)) {
          continue;
        }
        HealthStatus older_ = lb.getHealthStatus();
        HealthStatus restored = switch (state) {
          case DRAINING -> HealthStatus.DRAINING;
          // Never upgrade: an endpoint DEGRADED then and READY now stays as it was restored.
          case DEGRADED -> HealthStatus.DEGRADED;
          default -> older_ == HealthStatus.DRAINING ? HealthStatus.DRAINING : older_;
        };
        kept.addLbEndpoints(lb.toBuilder().setHealthStatus(restored));
      }
      if (kept.getLbEndpointsCount() > 0) {
        out.addEndpoints(kept);
      }
    }
    return out.build();
  }

  private static String key(String address, int port) {
    return address + "|" + port;
  }
}
