package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.assignment;
import static io.signalbox.controlplane.translate.Translations.endpoint;
import static io.signalbox.model.EndpointState.DRAINING;
import static io.signalbox.model.EndpointState.READY;
import static io.signalbox.model.EndpointState.WARMING;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.validation.DrainingAs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code loadReportingPerEndpoint}: every endpoint in a locality of its own, weighted so that each
 * zone keeps its share (round robin) and each endpoint its place on the ring (gRFC A42's product).
 */
class PerEndpointLocalityTest {

  private static final List<EndpointSpec> ENDPOINTS = List.of(
      endpoint("10.0.0.1", 8080, "a", 2, 0, READY),
      endpoint("10.0.0.2", 8080, "a", 3, 0, DRAINING),
      endpoint("10.0.1.1", 8080, "b", 5, 0, READY),
      endpoint("10.0.2.1", 8080, "c", 4, 1, READY),
      endpoint("10.0.3.1", 8080, "c", 1, 2, WARMING));

  private static ClusterLoadAssignment translate(LbPolicy policy, Boolean perEndpoint) {
    ClusterSpec spec = ClusterSpec.named("greeter").with(ClusterSpec.Balancing.of(policy))
        .with(new ClusterSpec.Telemetry(true, perEndpoint));
    return assignment(new XdsTranslator().translate(new DesiredState("test.yaml", List.of(), List.of(),
        List.of(spec), Map.of("greeter", ENDPOINTS))), "greeter");
  }

  /** (sub-zone or zone, priority, locality weight, endpoint weight) per locality, in order. */
  private static List<String> shape(ClusterLoadAssignment cla) {
    return cla.getEndpointsList().stream().map(PerEndpointLocalityTest::describe).toList();
  }

  private static String describe(LocalityLbEndpoints l) {
    Locality where = l.getLocality();
    return where.getZone() + "/" + where.getSubZone() + " p" + l.getPriority() + " L" + l.getLoadBalancingWeight()
        .getValue() + " " + l.getLbEndpointsList().stream()
        .map(e -> e.getEndpoint().getAddress().getSocketAddress().getAddress() + "=" + e.getLoadBalancingWeight()
            .getValue() + " " + e.getHealthStatus()).toList();
  }

  @Test
  void roundRobinGivesEveryEndpointItsOwnLocalityWeighedByItsWeight() {
    // Zone a keeps its share 2 + 3 = 5 of the priority's 10; priorities are kept (renumbered densely
    // as always, the WARMING endpoint's priority emptied).
    assertThat(shape(translate(LbPolicy.ROUND_ROBIN, true))).containsExactly(
        "a/10.0.0.1:8080 p0 L2 [10.0.0.1=2 HEALTHY]",
        "a/10.0.0.2:8080 p0 L3 [10.0.0.2=3 DRAINING]",
        "b/10.0.1.1:8080 p0 L5 [10.0.1.1=5 HEALTHY]",
        "c/10.0.2.1:8080 p1 L4 [10.0.2.1=4 HEALTHY]");
  }

  @Test
  void ringHashKeepsEachEndpointsProductOfLocalityAndEndpointWeight() {
    ClusterLoadAssignment perZone = translate(LbPolicy.RING_HASH, null);
    ClusterLoadAssignment perEndpoint = translate(LbPolicy.RING_HASH, true);

    assertThat(shape(perEndpoint)).containsExactly(
        "a/10.0.0.1:8080 p0 L5 [10.0.0.1=2 HEALTHY]",
        "a/10.0.0.2:8080 p0 L5 [10.0.0.2=3 DRAINING]",
        "b/10.0.1.1:8080 p0 L5 [10.0.1.1=5 HEALTHY]",
        "c/10.0.2.1:8080 p1 L4 [10.0.2.1=4 HEALTHY]");
    assertThat(a42Weights(perEndpoint)).isEqualTo(a42Weights(perZone));
  }

  /** What grpc-xds puts on the ring per endpoint (gRFC A42): locality weight × endpoint weight. */
  private static Map<String, Long> a42Weights(ClusterLoadAssignment cla) {
    Map<String, Long> out = new java.util.TreeMap<>();
    for (LocalityLbEndpoints l : cla.getEndpointsList()) {
      l.getLbEndpointsList().forEach(e -> out.put(e.getEndpoint().getAddress().getSocketAddress().getAddress(),
          (long) l.getLoadBalancingWeight().getValue() * e.getLoadBalancingWeight().getValue()));
    }
    return out;
  }

  @Test
  void withoutTheSettingLocalitiesStayPerZone() {
    assertThat(shape(translate(LbPolicy.ROUND_ROBIN, null))).containsExactly(
        "a/ p0 L5 [10.0.0.1=2 HEALTHY, 10.0.0.2=3 DRAINING]",
        "b/ p0 L5 [10.0.1.1=5 HEALTHY]",
        "c/priority-1 p1 L4 [10.0.2.1=4 HEALTHY]");
  }

  @Test
  void aClientThatGetsDrainingEndpointsLeftOutKeepsEveryOtherEndpointsLocality() {
    ClusterLoadAssignment omitted = DrainingVariant.of(translate(LbPolicy.RING_HASH, true), DrainingAs.OMIT);

    assertThat(shape(omitted)).containsExactly(
        "a/10.0.0.1:8080 p0 L5 [10.0.0.1=2 HEALTHY]",
        "b/10.0.1.1:8080 p0 L5 [10.0.1.1=5 HEALTHY]",
        "c/10.0.2.1:8080 p1 L4 [10.0.2.1=4 HEALTHY]");
  }
}
