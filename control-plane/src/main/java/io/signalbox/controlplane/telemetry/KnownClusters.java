package io.signalbox.controlplane.telemetry;

import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.TypeResources;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The clusters, localities and endpoints a snapshot sends: a report naming anything else is refused
 * (a client of another control plane, a typo'd bootstrap, a made-up locality or endpoint), so that
 * the figures only ever describe what Signalbox serves, and per-endpoint figures stay as many as the
 * endpoints served. Built once per snapshot, not per report.
 *
 * @param endpoints per cluster and locality, the endpoints ({@code address:port}) the assignment puts there
 */
record KnownClusters(long epoch, Map<String, Set<Locality>> localities, Set<Placed> endpoints) {

  static final KnownClusters EMPTY = new KnownClusters(-1, Map.of(), Set.of());

  /** An endpoint where an assignment puts it. */
  record Placed(String cluster, Locality locality, String endpoint) {}

  /** Clusters and localities without endpoints: every per-endpoint figure is refused. */
  KnownClusters(long epoch, Map<String, Set<Locality>> localities) {
    this(epoch, localities, Set.of());
  }

  static KnownClusters of(Snapshot snapshot) {
    if (snapshot == null) {
      return EMPTY;
    }
    Map<String, Set<Locality>> out = new HashMap<>();
    Set<Placed> placed = new HashSet<>();
    TypeResources clusters = snapshot.resources(XdsType.CLUSTER);
    if (clusters != null) {
      clusters.byName().keySet().forEach(name -> out.put(name, new HashSet<>()));
    }
    TypeResources assignments = snapshot.resources(XdsType.ENDPOINT);
    if (assignments != null) {
      for (XdsResource resource : assignments.byName().values()) {
        ClusterLoadAssignment cla = assignment(resource);
        if (cla == null) {
          continue;
        }
        Set<Locality> set = out.computeIfAbsent(cla.getClusterName(), c -> new HashSet<>());
        for (LocalityLbEndpoints l : cla.getEndpointsList()) {
          Locality locality = new Locality(l.getLocality().getRegion(), l.getLocality().getZone(),
              l.getLocality().getSubZone());
          set.add(locality);
          for (LbEndpoint e : l.getLbEndpointsList()) {
            SocketAddress a = e.getEndpoint().getAddress().getSocketAddress();
            placed.add(new Placed(cla.getClusterName(), locality, a.getAddress() + ":" + a.getPortValue()));
          }
        }
      }
    }
    out.replaceAll((k, v) -> Set.copyOf(v));
    return new KnownClusters(snapshot.epoch(), Map.copyOf(out), Set.copyOf(placed));
  }

  private static ClusterLoadAssignment assignment(XdsResource resource) {
    return resource.hasContent() ? resource.content(ClusterLoadAssignment.class) : null;
  }

  boolean knows(String cluster) {
    return localities.containsKey(cluster);
  }

  boolean knows(String cluster, Locality locality) {
    Set<Locality> set = localities.get(cluster);
    return set != null && set.contains(locality);
  }

  boolean knows(String cluster, Locality locality, String endpoint) {
    return endpoints.contains(new Placed(cluster, locality, endpoint));
  }
}
