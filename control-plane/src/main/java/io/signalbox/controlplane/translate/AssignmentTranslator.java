package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.EndpointSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A cluster's endpoints to its {@link ClusterLoadAssignment}; the state mapping and its reasons are
 * on {@link XdsTranslator}.
 */
final class AssignmentTranslator {

  /** Sort order of the emitted assignment, so equal inputs in any order give equal bytes. */
  private static final Comparator<EndpointSpec> ORDER =
      Comparator.comparingInt(EndpointSpec::priority)
          .thenComparing(EndpointSpec::zone)
          .thenComparing(e -> Objects.requireNonNullElse(e.address(), ""))
          .thenComparingInt(EndpointSpec::port);

  private static final long UINT32_MAX = 0xFFFF_FFFFL;

  private AssignmentTranslator() {}

  static ClusterLoadAssignment toAssignment(String clusterName, List<EndpointSpec> endpoints) {
    List<EndpointSpec> offered = new ArrayList<>(endpoints.size());
    for (EndpointSpec e : endpoints) {
      if (healthStatus(e) != null) {
        offered.add(e);
      }
    }
    offered.sort(ORDER);

    ClusterLoadAssignment.Builder cla = ClusterLoadAssignment.newBuilder().setClusterName(clusterName);
    // Priorities are renumbered densely (0, 2 -> 0, 1): omitting WARMING/EJECTED endpoints can empty
    // a whole priority, and grpc-xds rejects the assignment with "sparse priorities" when one is
    // skipped. The relative order, which is all the priorities mean, is kept.
    int emittedPriority = -1;
    int lastPriority = Integer.MIN_VALUE;
    int i = 0;
    while (i < offered.size()) {
      EndpointSpec first = offered.get(i);
      if (first.priority() != lastPriority) {
        lastPriority = first.priority();
        emittedPriority++;
      }
      LocalityLbEndpoints.Builder locality = LocalityLbEndpoints.newBuilder().setPriority(emittedPriority);
      if (!first.zone().isEmpty()) {
        locality.setLocality(Locality.newBuilder().setZone(first.zone()));
      }
      long weightSum = 0;
      for (; i < offered.size() && sameLocality(first, offered.get(i)); i++) {
        EndpointSpec e = offered.get(i);
        int weight = lbWeight(e);
        weightSum += weight;
        locality.addLbEndpoints(lbEndpoint(e, weight));
      }
      // grpc-xds ignores a locality without a weight ("No usable endpoint"); Envoy caps the sum at
      // uint32.
      locality.setLoadBalancingWeight(uint32((int) Math.min(weightSum, UINT32_MAX)));
      cla.addEndpoints(locality);
    }
    return cla.build();
  }

  /** The health status to send, or null when the endpoint is left out of the assignment. */
  static HealthStatus healthStatus(EndpointSpec e) {
    return switch (e.state()) {
      case READY -> HealthStatus.HEALTHY;
      case DEGRADED -> HealthStatus.DEGRADED;
      case DRAINING -> HealthStatus.DRAINING;
      case WARMING, EJECTED -> null;
    };
  }

  private static boolean sameLocality(EndpointSpec a, EndpointSpec b) {
    return a.priority() == b.priority() && a.zone().equals(b.zone());
  }

  /** Envoy requires every weight >= 1; valid input already is, this only keeps odd input sendable. */
  private static int lbWeight(EndpointSpec e) {
    return Math.max(1, e.weight());
  }

  private static LbEndpoint lbEndpoint(EndpointSpec e, int weight) {
    // DNS names are passed through as given. Envoy's EDS resolves nothing (it needs IP addresses,
    // so Envoy fleets should be fed IPs); grpc-xds resolves nothing either. The validator may warn.
    SocketAddress socket =
        SocketAddress.newBuilder()
            .setAddress(Objects.requireNonNullElse(e.address(), ""))
            .setPortValue(e.port())
            .build();
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(socket)))
        .setHealthStatus(healthStatus(e))
        .setLoadBalancingWeight(uint32(weight))
        .build();
  }
}
