package io.signalbox.controlplane.translate;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import java.util.List;
import java.util.Map;

/** Test-only: states to translate and typed access to what came out. */
final class Translations {
  private Translations() {}

  static DesiredState clusters(ClusterSpec... clusters) {
    return new DesiredState("test.yaml", List.of(), List.of(), List.of(clusters), Map.of());
  }

  static DesiredState endpoints(String cluster, EndpointSpec... endpoints) {
    return new DesiredState("test.yaml", List.of(), List.of(), List.of(), Map.of(cluster, List.of(endpoints)));
  }

  static DesiredState listeners(List<ListenerSpec> listeners, List<RouteConfigSpec> routeConfigs) {
    return new DesiredState("test.yaml", listeners, routeConfigs, List.of(), Map.of());
  }

  static EndpointSpec endpoint(String address, int port, String zone, int weight, int priority, EndpointState state) {
    return new EndpointSpec(address, port, zone, weight, priority, state, "file:/test");
  }

  static TranslatedResource resource(Translation translation, XdsType type, String name) {
    return translation.ofType(type).stream()
        .filter(r -> r.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " named '" + name + "' in " + translation.resources()));
  }

  static Cluster cluster(Translation translation, String name) {
    return (Cluster) resource(translation, XdsType.CLUSTER, name).message();
  }

  static ClusterLoadAssignment assignment(Translation translation, String name) {
    return (ClusterLoadAssignment) resource(translation, XdsType.ENDPOINT, name).message();
  }

  static Listener listener(Translation translation, String name) {
    return (Listener) resource(translation, XdsType.LISTENER, name).message();
  }

  static RouteConfiguration routeConfiguration(Translation translation, String name) {
    return (RouteConfiguration) resource(translation, XdsType.ROUTE, name).message();
  }
}
