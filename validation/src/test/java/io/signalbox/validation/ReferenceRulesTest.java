package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.WeightedClusterSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceRulesTest {

  private static DesiredState routingTo(RouteSpec... routes) {
    return new DesiredState(
        CONFIG,
        List.of(apiListener("web", "web")),
        List.of(routeConfig("web", routes)),
        List.of(ClusterSpec.named("greeter")),
        Map.of("greeter", List.of(endpoint("10.0.0.1", 8080))));
  }

  @Test
  void rejectsRouteToUnknownCluster() {
    assertThat(rendered(routingTo(routeTo("greeter"), routeTo("greeter"), routeTo("nope"))))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[2].cluster: names unknown cluster 'nope' [reference.cluster]");
  }

  @Test
  void rejectsWeightedClusterToUnknownCluster() {
    RouteSpec split = new RouteSpec(
        new RouteMatchSpec("/", null, null),
        null,
        List.of(new WeightedClusterSpec("greeter", 90), new WeightedClusterSpec("nope", 10)),
        null);

    assertThat(rendered(routingTo(split)))
        .containsExactly(
            "signalbox.yaml: route config 'web': virtualHosts[0].routes[0].weightedClusters[1].name: "
                + "names unknown cluster 'nope' [reference.cluster]");
  }

  @Test
  void acceptsRouteToClusterDiscoveredBySource() {
    DesiredState state = routingTo(routeTo("greeter"), routeTo("default/echo:http"))
        .withEndpoints("default/echo:http", List.of(endpoint("10.0.0.2", 80)));

    assertThat(rendered(state)).isEmpty();
  }

  @Test
  void acceptsEndpointsOfClusterNothingNames() {
    assertThat(rendered(routingTo(routeTo("greeter")).withEndpoints("orphan", List.of(endpoint("10.0.0.3", 80)))))
        .isEmpty();
  }

  @Test
  void warnsAboutDeclaredClusterWithoutEndpoints() {
    DesiredState state = new DesiredState(
        CONFIG,
        List.of(apiListener("web", "web")),
        List.of(routeConfig("web", routeTo("greeter"))),
        List.of(ClusterSpec.named("greeter")),
        Map.of());

    ValidationResult result = new DesiredStateValidator().validate(state);

    assertThat(result.isValid()).isTrue();
    assertThat(result.warnings()).map(Violation::toString)
        .containsExactly("signalbox.yaml: cluster 'greeter': has no endpoints [endpoints.missing] (warning)");
  }

  @Test
  void warnsAboutRouteConfigNoListenerUses() {
    DesiredState base = routingTo(routeTo("greeter"));
    DesiredState state = new DesiredState(
        CONFIG,
        base.listeners(),
        List.of(base.routeConfigs().get(0), routeConfig("spare", routeTo("greeter"))),
        base.clusters(),
        base.endpoints());

    ValidationResult result = new DesiredStateValidator().validate(state);

    assertThat(result.isValid()).isTrue();
    assertThat(result.warnings()).map(Violation::toString)
        .containsExactly("signalbox.yaml: route config 'spare': is not used by any listener [unused.route-config] (warning)");
  }
}
