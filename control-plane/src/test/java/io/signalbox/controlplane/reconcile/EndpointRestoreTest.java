package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * An older assignment restored resurrects nothing (invariant 4): what is gone stays gone, what
 * drains now drains, what is not eligible now is not offered, nothing is upgraded, and endpoints
 * added since are left out.
 */
class EndpointRestoreTest {

  private static LbEndpoint lb(int port, HealthStatus health) {
    return LbEndpoint.newBuilder().setHealthStatus(health).setEndpoint(Endpoint.newBuilder().setAddress(
        Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.1").setPortValue(port))))
        .build();
  }

  private static ClusterLoadAssignment older(LbEndpoint... zoneA) {
    return ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(LocalityLbEndpoints.newBuilder().addAllLbEndpoints(List.of(zoneA)))
        .build();
  }

  private static EndpointSpec now(int port, EndpointState state) {
    return new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "file:/e.yaml");
  }

  private static Map<Integer, HealthStatus> restored(ClusterLoadAssignment cla) {
    Map<Integer, HealthStatus> out = new TreeMap<>();
    cla.getEndpointsList().forEach(l -> l.getLbEndpointsList().forEach(lb -> out.put(
        lb.getEndpoint().getAddress().getSocketAddress().getPortValue(), lb.getHealthStatus())));
    return out;
  }

  @Test
  void anEndpointStillReadyIsRestoredAsItWas() {
    ClusterLoadAssignment restored = EndpointRestore.restore(older(lb(80, HealthStatus.HEALTHY)),
        List.of(now(80, EndpointState.READY)));

    assertThat(restored).isEqualTo(older(lb(80, HealthStatus.HEALTHY)));
  }

  @Test
  void anEndpointRemovedSinceStaysGoneAndOneAddedSinceIsLeftOut() {
    ClusterLoadAssignment restored = EndpointRestore.restore(
        older(lb(80, HealthStatus.HEALTHY), lb(81, HealthStatus.HEALTHY)),
        List.of(now(80, EndpointState.READY), now(82, EndpointState.READY)));

    assertThat(restored(restored)).containsExactly(Map.entry(80, HealthStatus.HEALTHY));
  }

  @Test
  void anEndpointDrainingNowIsRestoredDraining() {
    assertThat(restored(EndpointRestore.restore(older(lb(80, HealthStatus.HEALTHY)),
        List.of(now(80, EndpointState.DRAINING))))).containsExactly(Map.entry(80, HealthStatus.DRAINING));
  }

  @Test
  void anEndpointNotEligibleNowIsNotOffered() {
    assertThat(restored(EndpointRestore.restore(older(lb(80, HealthStatus.HEALTHY), lb(81, HealthStatus.HEALTHY)),
        List.of(now(80, EndpointState.EJECTED), now(81, EndpointState.WARMING))))).isEmpty();
  }

  @Test
  void nothingIsUpgraded() {
    ClusterLoadAssignment restored = EndpointRestore.restore(
        older(lb(80, HealthStatus.DRAINING), lb(81, HealthStatus.DEGRADED), lb(82, HealthStatus.HEALTHY)),
        List.of(now(80, EndpointState.READY), now(81, EndpointState.READY), now(82, EndpointState.DEGRADED)));

    assertThat(restored(restored)).containsExactly(Map.entry(80, HealthStatus.DRAINING),
        Map.entry(81, HealthStatus.DEGRADED), Map.entry(82, HealthStatus.DEGRADED));
  }

  @Test
  void aLocalityLeftWithNoEndpointsIsDropped() {
    ClusterLoadAssignment older = older(lb(80, HealthStatus.HEALTHY)).toBuilder()
        .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(lb(81, HealthStatus.HEALTHY))).build();

    ClusterLoadAssignment restored = EndpointRestore.restore(older, List.of(now(80, EndpointState.READY)));

    assertThat(restored.getEndpointsCount()).isEqualTo(1);
  }
}
