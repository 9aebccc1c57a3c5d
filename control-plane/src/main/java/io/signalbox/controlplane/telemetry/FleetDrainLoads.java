package io.signalbox.controlplane.telemetry;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.validation.DrainProgress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A draining endpoint's work as the fleet's load reports give it: per client, the endpoint's own
 * figures where the client reports per endpoint (Envoy), else those of the locality the published
 * assignment puts the endpoint in. Under {@code loadReportingPerEndpoint} that locality is the
 * endpoint's own; otherwise it is its zone's, whose in-flight count bounds the endpoint's (an idle
 * zone is an idle endpoint; a busy one may be busy elsewhere, and holds the drain until the
 * deadline).
 */
public final class FleetDrainLoads implements DrainLoads {

  private final FleetLoad fleet;
  private final Supplier<PublishedView> view;

  FleetDrainLoads(FleetLoad fleet, Supplier<PublishedView> view) {
    this.fleet = fleet;
    this.view = view;
  }

  @Override
  public Duration interval() {
    return fleet.interval();
  }

  @Override
  public boolean reporting(String cluster) {
    return view.get().clusters().apply(cluster).reportsLoad();
  }

  @Override
  public Map<String, DrainProgress.ClientLoad> loads(EndpointRef endpoint) {
    // Once per drain view: the locality (a parse of a restored epoch's assignment) and the client rows.
    Locality where = locality(view.get().snapshot(), endpoint);
    if (where == null) {
      return Map.of();
    }
    Map<String, DrainProgress.ClientLoad> out = new HashMap<>();
    for (ClientWork w : fleet.work(endpoint.cluster(), where, endpoint.address() + ":" + endpoint.port())) {
      out.putIfAbsent(w.client().nodeId(), w.idle() ? new DrainProgress.Idle(w.idleSince(), w.client().lastReport())
          : new DrainProgress.InFlight(w.inFlight(), w.client().lastReport()));
    }
    return out;
  }

  /** The locality the published assignment puts {@code endpoint} in, as clients name it back; null if absent. */
  static Locality locality(Snapshot snapshot, EndpointRef endpoint) {
    XdsResource r = snapshot == null ? null : snapshot.resources(XdsType.ENDPOINT).get(endpoint.cluster());
    if (r == null || !r.hasContent()) {
      return null;
    }
    // content(): a follower's or a new leader's epoch was restored from the store, its message unbuilt.
    ClusterLoadAssignment cla = r.content(ClusterLoadAssignment.class);
    for (LocalityLbEndpoints l : cla.getEndpointsList()) {
      for (LbEndpoint e : l.getLbEndpointsList()) {
        var socket = e.getEndpoint().getAddress().getSocketAddress();
        if (socket.getAddress().equals(endpoint.address()) && socket.getPortValue() == endpoint.port()) {
          var at = l.getLocality();
          return new Locality(at.getRegion(), at.getZone(), at.getSubZone());
        }
      }
    }
    return null;
  }
}
