package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.RouteMatchSpec;
import io.signalbox.model.RouteSpec;
import io.signalbox.model.VirtualHostSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The configuration and endpoint file of DESIGN §6, as the config loader would hand them over. */
class ExampleConfigTest {

  private static final ListenerSpec GREETER = new ListenerSpec("greeter", true, null, null, "greeter");
  private static final ListenerSpec INGRESS = new ListenerSpec("ingress", false, "0.0.0.0", 10000, "web");

  private static RouteConfigSpec routeConfig(String name) {
    return new RouteConfigSpec(name, List.of(new VirtualHostSpec(
        name, List.of("*"), List.of(new RouteSpec(new RouteMatchSpec("", null, null), "greeter", null, null)))));
  }

  private static final ClusterSpec CLUSTER = new ClusterSpec("greeter",
      new ClusterSpec.Balancing(LbPolicy.ROUND_ROBIN, Duration.ofSeconds(30), null, null, null, null, null),
      new ClusterSpec.Connection(Duration.ofSeconds(1), null, null, null),
      new ClusterSpec.Ejection(10, null),
      null,
      null, null);

  private static final Map<String, List<EndpointSpec>> ENDPOINTS = Map.of("greeter", List.of(
      new EndpointSpec("127.0.0.1", 50051, "a", 1, 0, EndpointState.READY, "file:./endpoints.yaml"),
      new EndpointSpec("127.0.0.1", 50052, "b", 1, 0, EndpointState.DRAINING, "file:./endpoints.yaml")));

  @Test
  void designExampleWithItsIngressRouteConfigValidatesClean() {
    DesiredState state = new DesiredState(
        "signalbox.yaml", List.of(GREETER, INGRESS), List.of(routeConfig("greeter"), routeConfig("web")), List.of(CLUSTER), ENDPOINTS);

    assertThat(new DesiredStateValidator().validate(state).violations()).isEmpty();
  }

  /** DESIGN §6's listing names route config 'web' but declares only 'greeter'; the validator says so. */
  @Test
  void designExampleAsListedNamesAnUndeclaredRouteConfig() {
    DesiredState state = new DesiredState(
        "signalbox.yaml", List.of(GREETER, INGRESS), List.of(routeConfig("greeter")), List.of(CLUSTER), ENDPOINTS);

    assertThat(new DesiredStateValidator().validate(state).violations()).map(Violation::toString)
        .containsExactly(
            "signalbox.yaml: listener 'ingress': routeConfig: names unknown route config 'web' [reference.route-config]");
  }
}
