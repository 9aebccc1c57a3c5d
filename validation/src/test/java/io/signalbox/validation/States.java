package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import java.util.List;
import java.util.Map;

/** Small, valid building blocks; each test breaks exactly what it is about. */
final class States {

  static final String CONFIG = "signalbox.yaml";
  static final String FILE = "file:/etc/endpoints.yaml";

  private States() {}

  static ListenerSpec apiListener(String name, String routeConfig) {
    return new ListenerSpec(name, true, null, null, routeConfig);
  }

  static ListenerSpec socketListener(String name, String address, Integer port, String routeConfig) {
    return new ListenerSpec(name, false, address, port, routeConfig);
  }

  static RouteSpec routeTo(String cluster) {
    return new RouteSpec(new RouteMatchSpec("", null, null), cluster, null, null);
  }

  static RouteConfigSpec routeConfig(String name, RouteSpec... routes) {
    return new RouteConfigSpec(name, List.of(new VirtualHostSpec(name, List.of("*"), List.of(routes))));
  }

  static EndpointSpec endpoint(String address, int port) {
    return new EndpointSpec(address, port, "a", 1, 0, EndpointState.READY, FILE);
  }

  /** One API listener -> one route config -> one declared cluster with one READY endpoint. */
  static DesiredState valid(ClusterSpec cluster) {
    return new DesiredState(
        CONFIG,
        List.of(apiListener("greeter", "greeter")),
        List.of(routeConfig("greeter", routeTo(cluster.name()))),
        List.of(cluster),
        Map.of(cluster.name(), List.of(endpoint("10.0.0.1", 8080))));
  }

  static DesiredState withEndpoints(List<EndpointSpec> endpoints) {
    return valid(ClusterSpec.named("greeter")).withEndpoints("greeter", endpoints);
  }

  static List<String> rendered(DesiredState state) {
    return new DesiredStateValidator().validate(state).violations().stream().map(Violation::toString).toList();
  }
}
