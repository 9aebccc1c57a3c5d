package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.assignment;
import static io.signalbox.controlplane.translate.Translations.endpoint;
import static io.signalbox.controlplane.translate.Translations.endpoints;
import static io.signalbox.model.EndpointState.DEGRADED;
import static io.signalbox.model.EndpointState.DRAINING;
import static io.signalbox.model.EndpointState.EJECTED;
import static io.signalbox.model.EndpointState.READY;
import static io.signalbox.model.EndpointState.WARMING;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignmentTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  private static LbEndpoint lbEndpoint(String address, int port, HealthStatus status, int weight) {
    return LbEndpoint.newBuilder()
        .setEndpoint(
            Endpoint.newBuilder()
                .setAddress(
                    Address.newBuilder()
                        .setSocketAddress(SocketAddress.newBuilder().setAddress(address).setPortValue(port))))
        .setHealthStatus(status)
        .setLoadBalancingWeight(UInt32Value.of(weight))
        .build();
  }

  private ClusterLoadAssignment translate(EndpointSpec... eps) {
    return assignment(translator.translate(endpoints("greeter", eps)), "greeter");
  }

  @Test
  void groupsByZoneWithLocalityWeightTheSumOfEndpointWeights() {
    ClusterLoadAssignment cla =
        translate(
            endpoint("10.0.0.2", 8080, "a", 3, 0, READY),
            endpoint("10.0.0.1", 8080, "a", 2, 0, READY),
            endpoint("10.0.1.1", 8080, "b", 5, 0, READY));
    assertThat(cla)
        .isEqualTo(
            ClusterLoadAssignment.newBuilder()
                .setClusterName("greeter")
                .addEndpoints(
                    LocalityLbEndpoints.newBuilder()
                        .setLocality(Locality.newBuilder().setZone("a"))
                        .setLoadBalancingWeight(UInt32Value.of(5))
                        .addLbEndpoints(lbEndpoint("10.0.0.1", 8080, HealthStatus.HEALTHY, 2))
                        .addLbEndpoints(lbEndpoint("10.0.0.2", 8080, HealthStatus.HEALTHY, 3)))
                .addEndpoints(
                    LocalityLbEndpoints.newBuilder()
                        .setLocality(Locality.newBuilder().setZone("b"))
                        .setLoadBalancingWeight(UInt32Value.of(5))
                        .addLbEndpoints(lbEndpoint("10.0.1.1", 8080, HealthStatus.HEALTHY, 5)))
                .build());
  }

  @Test
  void mapsDegradedAndDrainingToEnvoysStatusesOfTheSameName() {
    ClusterLoadAssignment cla =
        translate(endpoint("10.0.0.1", 1, "a", 1, 0, DEGRADED), endpoint("10.0.0.2", 1, "a", 1, 0, DRAINING));
    assertThat(cla.getEndpoints(0).getLbEndpointsList())
        .containsExactly(
            lbEndpoint("10.0.0.1", 1, HealthStatus.DEGRADED, 1), lbEndpoint("10.0.0.2", 1, HealthStatus.DRAINING, 1));
  }

  @Test
  void omitsWarmingAndEjectedEndpointsInsteadOfSendingThemUnhealthy() {
    ClusterLoadAssignment cla =
        translate(
            endpoint("10.0.0.1", 1, "a", 1, 0, WARMING),
            endpoint("10.0.0.2", 1, "a", 4, 0, READY),
            endpoint("10.0.0.3", 1, "a", 7, 0, EJECTED));
    assertThat(cla.getEndpointsList())
        .containsExactly(
            LocalityLbEndpoints.newBuilder()
                .setLocality(Locality.newBuilder().setZone("a"))
                .setLoadBalancingWeight(UInt32Value.of(4))
                .addLbEndpoints(lbEndpoint("10.0.0.2", 1, HealthStatus.HEALTHY, 4))
                .build());
  }

  @Test
  void omitsALocalityWhoseEndpointsAreAllOmitted() {
    ClusterLoadAssignment cla =
        translate(endpoint("10.0.0.1", 1, "a", 1, 0, WARMING), endpoint("10.0.1.1", 1, "b", 1, 0, READY));
    assertThat(cla.getEndpointsList()).extracting(l -> l.getLocality().getZone()).containsExactly("b");
  }

  @Test
  void drainingEndpointsStillCountTowardsTheLocalityWeight() {
    ClusterLoadAssignment cla =
        translate(endpoint("10.0.0.1", 1, "a", 2, 0, READY), endpoint("10.0.0.2", 1, "a", 3, 0, DRAINING));
    assertThat(cla.getEndpoints(0).getLoadBalancingWeight()).isEqualTo(UInt32Value.of(5));
  }

  @Test
  void splitsLocalitiesByPriorityAndOrdersThemByPriorityThenZone() {
    ClusterLoadAssignment cla =
        translate(
            endpoint("10.0.2.1", 1, "a", 1, 1, READY),
            endpoint("10.0.1.1", 1, "b", 1, 0, READY),
            endpoint("10.0.0.1", 1, "a", 1, 0, READY));
    assertThat(cla.getEndpointsList())
        .extracting(l -> l.getPriority() + "/" + l.getLocality().getZone())
        .containsExactly("0/a", "0/b", "1/a");
  }

  @Test
  void renumbersPrioritiesDenselyWhenAWholePriorityIsOmitted() {
    ClusterLoadAssignment cla =
        translate(
            endpoint("10.0.0.1", 1, "a", 1, 0, WARMING),
            endpoint("10.0.1.1", 1, "a", 1, 1, READY),
            endpoint("10.0.2.1", 1, "a", 1, 2, READY));
    assertThat(cla.getEndpointsList()).extracting(LocalityLbEndpoints::getPriority).containsExactly(0, 1);
    assertThat(cla.getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress().getAddress())
        .isEqualTo("10.0.1.1");
  }

  @Test
  void endpointsWithoutZoneGetNoLocalityMessage() {
    ClusterLoadAssignment cla = translate(endpoint("10.0.0.1", 1, "", 1, 0, READY));
    assertThat(cla.getEndpoints(0).hasLocality()).isFalse();
    assertThat(cla.getEndpoints(0).getLoadBalancingWeight()).isEqualTo(UInt32Value.of(1));
  }

  @Test
  void ordersEndpointsWithinALocalityByAddressThenPort() {
    ClusterLoadAssignment cla =
        translate(
            endpoint("10.0.0.2", 80, "a", 1, 0, READY),
            endpoint("10.0.0.1", 90, "a", 1, 0, READY),
            endpoint("10.0.0.1", 80, "a", 1, 0, READY));
    assertThat(cla.getEndpoints(0).getLbEndpointsList())
        .extracting(e -> e.getEndpoint().getAddress().getSocketAddress())
        .extracting(s -> s.getAddress() + ":" + s.getPortValue())
        .containsExactly("10.0.0.1:80", "10.0.0.1:90", "10.0.0.2:80");
  }

  @Test
  void keepsDnsNamesAsGiven() {
    ClusterLoadAssignment cla = translate(endpoint("greeter.default.svc", 50051, "a", 1, 0, READY));
    assertThat(cla.getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress())
        .isEqualTo(SocketAddress.newBuilder().setAddress("greeter.default.svc").setPortValue(50051).build());
  }

  @Test
  void clusterWithoutEndpointsGetsAnEmptyAssignment() {
    DesiredState state =
        new DesiredState("test.yaml", List.of(), List.of(), List.of(ClusterSpec.named("lonely")), Map.of());
    var resource = Translations.resource(translator.translate(state), XdsType.ENDPOINT, "lonely");
    assertThat(resource.message()).isEqualTo(ClusterLoadAssignment.newBuilder().setClusterName("lonely").build());
    assertThat(resource.references()).isEmpty();
  }

  @Test
  void clusterWhoseEndpointsAreAllWarmingGetsAnEmptyAssignment() {
    assertThat(translate(endpoint("10.0.0.1", 1, "a", 1, 0, WARMING)))
        .isEqualTo(ClusterLoadAssignment.newBuilder().setClusterName("greeter").build());
  }

  @Test
  void translatesTheSameEndpointsInAnyInputOrderToTheSameAssignment() {
    EndpointSpec a = endpoint("10.0.0.1", 1, "a", 1, 0, READY);
    EndpointSpec b = endpoint("10.0.1.1", 1, "b", 2, 1, DRAINING);
    EndpointSpec c = endpoint("10.0.0.2", 1, "a", 3, 0, DEGRADED);
    assertThat(translate(a, b, c)).isEqualTo(translate(c, b, a));
  }

  private static ClusterLoadAssignment keyed(io.signalbox.model.LbPolicy policy, io.signalbox.model.HashKeySource keys) {
    ClusterSpec spec = ClusterSpec.named("greeter")
        .with(new ClusterSpec.Balancing(policy, null, null, new io.signalbox.model.RingHashSpec(null, null, keys), null,
            null, null));
    DesiredState state = new DesiredState("test.yaml", List.of(), List.of(), List.of(spec), Map.of("greeter", List.of(
        endpoint("10.0.0.1", 80, "", 1, 0, READY).withHashKey("g-0").withTargetRef("Pod/default/greeter-0"),
        endpoint("10.0.0.2", 80, "", 1, 0, READY))));
    return assignment(new XdsTranslator().translate(state), "greeter");
  }

  private static List<String> hashKeys(ClusterLoadAssignment cla) {
    return cla.getEndpoints(0).getLbEndpointsList().stream()
        .map(e -> e.getMetadata().getFilterMetadataOrDefault("envoy.lb", com.google.protobuf.Struct.getDefaultInstance())
            .getFieldsOrDefault("hash_key", com.google.protobuf.Value.getDefaultInstance()).getStringValue())
        .toList();
  }

  @Test
  void sendsTheChosenRingKeyAsEnvoyLbHashKeyAndNothingForAnEndpointWithout() {
    assertThat(hashKeys(keyed(io.signalbox.model.LbPolicy.RING_HASH, io.signalbox.model.HashKeySource.HASH_KEY)))
        .containsExactly("g-0", "");
    assertThat(hashKeys(keyed(io.signalbox.model.LbPolicy.RING_HASH, io.signalbox.model.HashKeySource.TARGET_REF)))
        .containsExactly("Pod/default/greeter-0", "");
    // The default, and any policy that hashes nothing, send no metadata at all: today's bytes.
    assertThat(keyed(io.signalbox.model.LbPolicy.RING_HASH, null).getEndpoints(0).getLbEndpoints(0).hasMetadata())
        .isFalse();
    assertThat(keyed(io.signalbox.model.LbPolicy.ROUND_ROBIN, io.signalbox.model.HashKeySource.HASH_KEY)
        .getEndpoints(0).getLbEndpoints(0).hasMetadata()).isFalse();
  }

  @Test
  void sendsAnEndpointsHostnameAndNoneForAnEndpointWithout() {
    ClusterLoadAssignment cla = translate(
        endpoint("10.0.0.1", 80, "", 1, 0, READY).withHostname("web-0.example"), endpoint("10.0.0.2", 80, "", 1, 0, READY));
    assertThat(cla.getEndpoints(0).getLbEndpointsList()).extracting(e -> e.getEndpoint().getHostname())
        .containsExactly("web-0.example", "");
  }

  @Test
  void sendsAnEndpointsOtherFamilyAsAdditionalAddressesOnItsPort() {
    ClusterLoadAssignment cla = translate(
        endpoint("10.0.0.1", 80, "", 1, 0, READY).withAdditionalAddresses(List.of("fd00::1")));
    Endpoint sent = cla.getEndpoints(0).getLbEndpoints(0).getEndpoint();
    assertThat(sent.getAdditionalAddressesList()).extracting(a -> a.getAddress().getSocketAddress())
        .containsExactly(SocketAddress.newBuilder().setAddress("fd00::1").setPortValue(80).build());
  }
}
