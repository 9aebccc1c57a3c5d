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
import io.signalbox.validation.EndpointRules;
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

  /**
   * What one assignment is translated from: its cluster's endpoints and the one cluster setting
   * that lives on the assignment. The translator reuses an assignment while this stays equal.
   *
   * @param overprovisioningFactor null for the clients' default (140)
   */
  record Input(List<EndpointSpec> endpoints, Integer overprovisioningFactor) {}

  static ClusterLoadAssignment toAssignment(String clusterName, Input input) {
    ClusterLoadAssignment cla = toAssignment(clusterName, input.endpoints());
    if (input.overprovisioningFactor() == null) {
      return cla;
    }
    return cla.toBuilder()
        .setPolicy(ClusterLoadAssignment.Policy.newBuilder()
            .setOverprovisioningFactor(uint32(input.overprovisioningFactor())))
        .build();
  }

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
      Locality where = locality(first.zone(), emittedPriority);
      if (where != null) {
        locality.setLocality(where);
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

  /**
   * The locality of a zone's endpoints at a priority, or null for none (priority 0 of no zone).
   *
   * <p>A locality is distinct per priority: below priority 0 it carries the sub-zone {@code
   * priority-N}. grpc-xds keys an assignment's localities by (region, zone, sub-zone) across all
   * priorities ({@code XdsEndpointResource}: one map, the later entry replacing the earlier), so two
   * priorities with endpoints in the same zone used to leave only the lower one: traffic went to
   * priority 1 while priority 0 was healthy. Priority 0 keeps the plain zone because that is what
   * Envoy's zone-aware routing compares with the local zone, and Envoy routes zone-aware at priority
   * 0 only; at other priorities the sub-zone changes nothing in Envoy.
   */
  static Locality locality(String zone, int priority) {
    if (priority == 0) {
      return zone.isEmpty() ? null : Locality.newBuilder().setZone(zone).build();
    }
    return Locality.newBuilder().setZone(zone).setSubZone(PRIORITY_SUB_ZONE + priority).build();
  }

  /** The sub-zone that tells a priority's locality from the same zone's at other priorities. */
  static final String PRIORITY_SUB_ZONE = "priority-";

  private static boolean sameLocality(EndpointSpec a, EndpointSpec b) {
    return a.priority() == b.priority() && a.zone().equals(b.zone());
  }

  /**
   * Envoy refuses a weight below the rule's minimum; valid input never is, this only keeps odd
   * input (a translator test's, a state the validator has not seen) sendable.
   */
  private static int lbWeight(EndpointSpec e) {
    return Math.max(EndpointRules.MIN_WEIGHT, e.weight());
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
