package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.ProtoValues.uint32;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.validation.ZonePlan;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ClusterLoadAssignment} as the clients of one zone get it under {@code zonePreference:
 * SAME_ZONE}: the endpoints that zone prefers first, the rest as failover. An endpoint at priority
 * p goes to 2p when the zone prefers it and to 2p + 1 when not, renumbered densely (a skipped
 * priority is refused as "sparse"), so a cluster's own priorities keep their order and the zone's
 * endpoints lead within each. Priorities, not locality weights: every client kind applies them
 * (gRPC's priority policy, Envoy's priority levels), while gRPC weights localities by their weight
 * alone and would keep sending other zones their share.
 *
 * <p>Which zones prefer an endpoint is decided once, at translation ({@code validation/ZonePlan}:
 * by hint, else by zone; a zone with fewer eligible endpoints than the cluster's minimum prefers
 * none), and said in the endpoint's metadata under {@link #METADATA}. So a view is a function of
 * the assignment alone: the same bytes and version on every replica, and a change of hints or of
 * the minimum changes the assignment every client holds, which is what tells the streams to look.
 */
public final class ZoneView {

  private static final String METADATA = ZonePlan.METADATA;
  static final String ZONES = "zones";

  private ZoneView() {}

  static Struct preferredBy(List<String> zones) {
    ListValue.Builder list = ListValue.newBuilder();
    zones.forEach(z -> list.addValues(Value.newBuilder().setStringValue(z)));
    return Struct.newBuilder().putFields(ZONES, Value.newBuilder().setListValue(list).build()).build();
  }

  /**
   * {@code cla} as clients in {@code zone} get it: the very instance for a cluster that prefers no
   * zone (or a client of none); without the preference metadata, which the zone's clients have no
   * use for and which doubled the bytes of a ten-endpoint assignment, for one that does; with its
   * endpoints unmoved when that zone is one it does not name or one with too few.
   */
  public static ClusterLoadAssignment of(ClusterLoadAssignment cla, String zone) {
    if (zone.isEmpty() || !anyPreferred(cla, null)) {
      return cla;
    }
    if (!anyPreferred(cla, zone)) {
      return stripped(cla);
    }
    List<LocalityLbEndpoints> in = cla.getEndpointsList();
    ClusterLoadAssignment.Builder out = cla.toBuilder().clearEndpoints();
    int emitted = -1;
    int i = 0;
    while (i < in.size()) {
      int priority = in.get(i).getPriority();
      int end = i;
      while (end < in.size() && in.get(end).getPriority() == priority) {
        end++;
      }
      List<Part> first = new ArrayList<>();
      List<Part> rest = new ArrayList<>();
      for (int k = i; k < end; k++) {
        split(in.get(k), zone, first, rest);
      }
      if (!first.isEmpty()) {
        add(out, first, ++emitted);
      }
      if (!rest.isEmpty()) {
        add(out, rest, ++emitted);
      }
      i = end;
    }
    return stripped(out.build());
  }

  /** {@code cla} without the preference metadata, an endpoint's other metadata kept. */
  private static ClusterLoadAssignment stripped(ClusterLoadAssignment cla) {
    ClusterLoadAssignment.Builder out = cla.toBuilder();
    for (LocalityLbEndpoints.Builder locality : out.getEndpointsBuilderList()) {
      for (LbEndpoint.Builder e : locality.getLbEndpointsBuilderList()) {
        if (!e.hasMetadata()) {
          continue;
        }
        if (e.getMetadata().getFilterMetadataCount() == 1 && e.getMetadata().containsFilterMetadata(METADATA)) {
          e.clearMetadata();
        } else {
          e.getMetadataBuilder().removeFilterMetadata(METADATA);
        }
      }
    }
    return out.build();
  }

  /** Some of a locality's endpoints ({@code part}), moved as {@code from}'s are. */
  private record Part(LocalityLbEndpoints.Builder part, LocalityLbEndpoints from) {}

  private static void add(ClusterLoadAssignment.Builder out, List<Part> parts, int priority) {
    for (Part p : parts) {
      AssignmentTranslator.placeAt(p.part(), p.from(), priority);
      out.addEndpoints(p.part());
    }
  }

  /** A locality's preferred endpoints into {@code first}, the others into {@code rest}. */
  private static void split(LocalityLbEndpoints locality, String zone, List<Part> first, List<Part> rest) {
    LocalityLbEndpoints.Builder preferred = locality.toBuilder().clearLbEndpoints();
    LocalityLbEndpoints.Builder others = locality.toBuilder().clearLbEndpoints();
    long preferredWeight = 0;
    long othersWeight = 0;
    for (LbEndpoint e : locality.getLbEndpointsList()) {
      if (preferredBy(e, zone)) {
        preferred.addLbEndpoints(e);
        preferredWeight += e.getLoadBalancingWeight().getValue();
      } else {
        others.addLbEndpoints(e);
        othersWeight += e.getLoadBalancingWeight().getValue();
      }
    }
    if (preferred.getLbEndpointsCount() == 0 || others.getLbEndpointsCount() == 0) {
      (others.getLbEndpointsCount() == 0 ? first : rest).add(new Part(locality.toBuilder(), locality));
      return;
    }
    // A zone's locality split in two: each part weighs what its endpoints do, as translated.
    first.add(new Part(preferred.setLoadBalancingWeight(uint32((int) Math.min(preferredWeight, 0xFFFF_FFFFL))),
        locality));
    rest.add(new Part(others.setLoadBalancingWeight(uint32((int) Math.min(othersWeight, 0xFFFF_FFFFL))), locality));
  }

  private static boolean anyPreferred(ClusterLoadAssignment cla, String zone) {
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        if (preferredBy(e, zone)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code zone} prefers {@code e}; with a null zone, whether any does. */
  private static boolean preferredBy(LbEndpoint e, String zone) {
    if (!e.hasMetadata()) {
      return false;
    }
    Struct s = e.getMetadata().getFilterMetadataMap().get(METADATA);
    if (s == null) {
      return false;
    }
    if (zone == null) {
      return true;
    }
    Value zones = s.getFieldsMap().get(ZONES);
    if (zones == null) {
      return false;
    }
    for (Value z : zones.getListValue().getValuesList()) {
      if (z.getStringValue().equals(zone)) {
        return true;
      }
    }
    return false;
  }
}
