package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.HashKeySource;
import io.signalbox.model.ZonePreference;
import io.signalbox.validation.EndpointRules;
import io.signalbox.validation.ZonePlan;
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
   * What one assignment is translated from: its cluster's endpoints and the cluster settings that
   * live on the assignment. The translator reuses an assignment while this stays equal.
   *
   * @param overprovisioningFactor null for the clients' default (140)
   * @param zonePreference whether each endpoint says which zones' clients prefer it ({@link ZoneView})
   * @param minEligible the cluster's minimum, which a zone must meet to be preferred ({@link ZonePlan})
   */
  record Input(List<EndpointSpec> endpoints, Integer overprovisioningFactor, Localities localities,
      HashKeySource hashKeys, ZonePreference zonePreference, int minEligible) {
    Input(List<EndpointSpec> endpoints, Integer overprovisioningFactor, Localities localities,
        HashKeySource hashKeys) {
      this(endpoints, overprovisioningFactor, localities, hashKeys, ZonePreference.NONE, 0);
    }

    Input(List<EndpointSpec> endpoints, Integer overprovisioningFactor, Localities localities) {
      this(endpoints, overprovisioningFactor, localities, HashKeySource.ADDRESS);
    }

    Input(List<EndpointSpec> endpoints, Integer overprovisioningFactor) {
      this(endpoints, overprovisioningFactor, Localities.PER_ZONE);
    }
  }

  /**
   * How endpoints are grouped into localities: one per zone and priority, or ({@code
   * loadReportingPerEndpoint}) one per endpoint, weighted for the cluster's policy.
   *
   * <p>Why per endpoint: gRPC clients report load (LRS) per locality, never per endpoint, and a
   * call's in-progress count is attributed to the locality of the endpoint it was picked for, at
   * pick time. In a locality of its own, an endpoint's reported work is its own, so a drain can see
   * it finish ("in flight: 1" until a stream ends). The endpoint must already be in its own
   * locality when the drain starts: a call picked while it shared its zone's locality is counted
   * there, so moving it at drain time would hide exactly the calls the drain waits for. That is why
   * this is a standing cluster setting, not something a drain switches on.
   *
   * <p>The weights keep what every client does with them ({@code docs/traffic-policy.md}). The zone
   * locality's weight is the sum of its endpoints' weights W, an endpoint's own weight w:
   * <ul>
   *   <li>{@link #PER_ENDPOINT}: locality weight w, endpoint weight w. gRPC's weighted-target picks a
   *       locality by weight, so each zone keeps its share W (within the zone, round robin now
   *       follows the endpoint weights, which it ignored before); Envoy without locality-weighted
   *       balancing reads only endpoint weights (unchanged), and with it locality w of the total is
   *       w/ΣW, what W/ΣW × w/W was.
   *   <li>{@link #PER_ENDPOINT_HASHED} (RING_HASH, MAGLEV): locality weight W, endpoint weight w.
   *       gRFC A42 gives an endpoint the product of its locality's and its own weight on the ring,
   *       W × w before and after (w × w would square it); Envoy's ring and Maglev read endpoint
   *       weights only.
   * </ul>
   */
  enum Localities {
    PER_ZONE, PER_ENDPOINT, PER_ENDPOINT_HASHED;

    static Localities of(io.signalbox.model.ClusterSpec spec) {
      if (!spec.localityPerEndpoint()) {
        return PER_ZONE;
      }
      return spec.hashesRequests() ? PER_ENDPOINT_HASHED : PER_ENDPOINT;
    }
  }

  static ClusterLoadAssignment toAssignment(String clusterName, Input input) {
    ZonePlan zones = input.zonePreference() == ZonePreference.SAME_ZONE
        ? ZonePlan.of(input.endpoints(), input.minEligible()) : null;
    ClusterLoadAssignment cla = toAssignment(clusterName, input.endpoints(), input.localities(), input.hashKeys(), zones);
    if (input.overprovisioningFactor() == null) {
      return cla;
    }
    return cla.toBuilder()
        .setPolicy(ClusterLoadAssignment.Policy.newBuilder()
            .setOverprovisioningFactor(uint32(input.overprovisioningFactor())))
        .build();
  }

  static ClusterLoadAssignment toAssignment(String clusterName, List<EndpointSpec> endpoints) {
    return toAssignment(clusterName, endpoints, Localities.PER_ZONE);
  }

  static ClusterLoadAssignment toAssignment(String clusterName, List<EndpointSpec> endpoints, Localities mode) {
    return toAssignment(clusterName, endpoints, mode, HashKeySource.ADDRESS);
  }

  static ClusterLoadAssignment toAssignment(String clusterName, List<EndpointSpec> endpoints, Localities mode,
      HashKeySource hashKeys) {
    return toAssignment(clusterName, endpoints, mode, hashKeys, null);
  }

  /** @param zones which zones prefer each endpoint, said in its metadata; null for none */
  static ClusterLoadAssignment toAssignment(String clusterName, List<EndpointSpec> endpoints, Localities mode,
      HashKeySource hashKeys, ZonePlan zones) {
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
      if (mode != Localities.PER_ZONE) {
        int end = i;
        long zoneWeight = 0;
        for (; end < offered.size() && sameLocality(first, offered.get(end)); end++) {
          zoneWeight += lbWeight(offered.get(end));
        }
        for (; i < end; i++) {
          EndpointSpec e = offered.get(i);
          int weight = lbWeight(e);
          long localityWeight = mode == Localities.PER_ENDPOINT_HASHED ? zoneWeight : weight;
          cla.addEndpoints(LocalityLbEndpoints.newBuilder().setPriority(emittedPriority)
              .setLocality(endpointLocality(e))
              .setLoadBalancingWeight(uint32((int) Math.min(localityWeight, UINT32_MAX)))
              .addLbEndpoints(lbEndpoint(e, weight, hashKeys, zones)));
        }
        continue;
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
        locality.addLbEndpoints(lbEndpoint(e, weight, hashKeys, zones));
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

  /**
   * An endpoint's own locality under {@code loadReportingPerEndpoint}: its zone, and a sub-zone
   * naming it ({@code address:port}), the same at every priority (an endpoint is at one priority
   * only, so the name alone keeps grpc-xds's localities apart). Load reports name it back, which is
   * how a drain finds the endpoint's own work.
   */
  static Locality endpointLocality(EndpointSpec e) {
    return Locality.newBuilder().setZone(e.zone()).setSubZone(e.key()).build();
  }

  /**
   * Moves {@code moved} (a copy of {@code original}) to {@code priority}, as a variant renumbering
   * priorities must: an endpoint's own locality ({@link #endpointLocality}) keeps its name at any
   * priority, a zone's is named by its new priority ({@link #locality}).
   */
  static void placeAt(LocalityLbEndpoints.Builder moved, LocalityLbEndpoints original, int priority) {
    moved.setPriority(priority);
    String subZone = original.getLocality().getSubZone();
    Locality where = !subZone.isEmpty() && !subZone.startsWith(PRIORITY_SUB_ZONE)
        ? original.getLocality() : locality(original.getLocality().getZone(), priority);
    if (where == null) {
      moved.clearLocality();
    } else {
      moved.setLocality(where);
    }
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

  /**
   * The {@code envoy.lb} filter metadata that places an endpoint on a hash ring by a key of its own
   * instead of its address: the path Envoy's ring hash and Maglev read ({@code
   * Config::MetadataEnvoyLbKeys::HASH_KEY}) and gRFC A76 adopted for gRPC.
   */
  static final String LB_METADATA = "envoy.lb";
  static final String HASH_KEY = "hash_key";

  private static LbEndpoint lbEndpoint(EndpointSpec e, int weight, HashKeySource hashKeys, ZonePlan zones) {
    // DNS names are passed through as given. Envoy's EDS resolves nothing (it needs IP addresses,
    // so Envoy fleets should be fed IPs); grpc-xds resolves nothing either. The validator may warn.
    SocketAddress socket =
        SocketAddress.newBuilder()
            .setAddress(Objects.requireNonNullElse(e.address(), ""))
            .setPortValue(e.port())
            .build();
    LbEndpoint.Builder out = LbEndpoint.newBuilder();
    String key = hashKeys.keyOf(e);
    List<String> preferredBy = zones == null ? List.of() : zones.preferring(e);
    if (!key.isEmpty() || !preferredBy.isEmpty()) {
      Metadata.Builder metadata = Metadata.newBuilder();
      if (!key.isEmpty()) {
        metadata.putFilterMetadata(LB_METADATA, Struct.newBuilder()
            .putFields(HASH_KEY, Value.newBuilder().setStringValue(key).build()).build());
      }
      if (!preferredBy.isEmpty()) {
        metadata.putFilterMetadata(ZonePlan.METADATA, ZoneView.preferredBy(preferredBy));
      }
      out.setMetadata(metadata);
    }
    Endpoint.Builder endpoint = Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(socket));
    for (String other : e.additionalAddresses()) {
      // gRFC A61: the same backend on another address (its other family); one endpoint, one weight,
      // one place on the ring, and the client connects to whichever address answers first.
      endpoint.addAdditionalAddresses(Endpoint.AdditionalAddress.newBuilder().setAddress(Address.newBuilder()
          .setSocketAddress(SocketAddress.newBuilder().setAddress(other).setPortValue(e.port()))));
    }
    if (!e.hostname().isEmpty()) {
      // gRFC A81: what a client rewriting the authority for this route sends as :authority.
      endpoint.setHostname(e.hostname());
    }
    return out
        .setEndpoint(endpoint)
        .setHealthStatus(healthStatus(e))
        .setLoadBalancingWeight(uint32(weight))
        .build();
  }
}
