package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.ClientKindSettings;
import io.signalbox.controlplane.config.XdsSettings;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A drain must stop new work on every supported client (issue 33): Armeria's xDS module treats a
 * DRAINING endpoint as healthy, so its node group gets the endpoint as UNHEALTHY (or not at all),
 * while every other client keeps getting it as DRAINING. Raw ADS clients over real gRPC play both:
 * an Armeria-like node (no user agent, a node cluster the config names) and a grpc-java node.
 */
class DrainingForClientKindsTest {

  private static final String EDS = XdsType.ENDPOINT.typeUrl();
  private static final Node ARMERIA = Node.newBuilder().setId("armeria-1").setCluster("shop-armeria").build();
  private static final Node GRPC_JAVA = Node.newBuilder().setId("java-1").setCluster("shop-java")
      .setUserAgentName("gRPC Java").setUserAgentVersion("1.85.1").build();

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final List<AutoCloseable> closing = new ArrayList<>();
  private Snapshot last;
  private long epoch = 1;
  private AdsServer server;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void start(DrainingAs drainingAs) {
    XdsSettings defaults = XdsSettings.defaults();
    EdgeSettings edge = new EdgeSettings(null, null, defaults.limits(), defaults.maxConnectionAge(),
        defaults.maxConnectionAgeGrace(),
        new ClientKinds(List.of(new ClientKindSettings(List.of("shop-armeria"), ClientKind.ARMERIA, drainingAs))));
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(), edge, r -> {});
  }

  private RecordingAdsClient sotw(Node node) {
    RecordingAdsClient client = new RecordingAdsClient(server.port()).openSotw();
    closing.add(client);
    client.send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS).addResourceNames("web").build());
    return client;
  }

  private static LbEndpoint endpoint(int port, int weight, HealthStatus health) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))))
        .setHealthStatus(health)
        .setLoadBalancingWeight(UInt32Value.of(weight))
        .build();
  }

  private static LocalityLbEndpoints locality(String zone, int priority, LbEndpoint... endpoints) {
    int sum = 0;
    for (LbEndpoint e : endpoints) {
      sum += e.getLoadBalancingWeight().getValue();
    }
    LocalityLbEndpoints.Builder b = LocalityLbEndpoints.newBuilder().setPriority(priority)
        .setLoadBalancingWeight(UInt32Value.of(sum)).addAllLbEndpoints(List.of(endpoints));
    b.setLocality(priority == 0 ? Locality.newBuilder().setZone(zone).build()
        : Locality.newBuilder().setZone(zone).setSubZone("priority-" + priority).build());
    return b.build();
  }

  private Snapshot publish(LocalityLbEndpoints... localities) {
    ClusterLoadAssignment cla = ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addAllEndpoints(List.of(localities)).build();
    Snapshot s = builder.candidate(List.of(new TranslatedResource(XdsType.ENDPOINT, "web", cla, Set.of())), Map.of(),
        last, Provenance.newBuilder().setCause("test").build()).seal(epoch++, Instant.EPOCH);
    last = s;
    server.publish(s);
    return s;
  }

  private static ClusterLoadAssignment assignment(DiscoveryResponse r) throws Exception {
    assertThat(r.getResourcesCount()).isEqualTo(1);
    return r.getResources(0).unpack(ClusterLoadAssignment.class);
  }

  @Test
  void armeriaGetsADrainingEndpointAsUnhealthyWhileGrpcJavaGetsItAsDraining() throws Exception {
    start(null);
    publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY), endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = sotw(ARMERIA);
    RecordingAdsClient java = sotw(GRPC_JAVA);

    DiscoveryResponse toArmeria = armeria.next();
    DiscoveryResponse toJava = java.next();

    assertThat(assignment(toArmeria).getEndpoints(0).getLbEndpointsList())
        .extracting(LbEndpoint::getHealthStatus).containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
    assertThat(assignment(toJava).getEndpoints(0).getLbEndpointsList())
        .extracting(LbEndpoint::getHealthStatus).containsExactly(HealthStatus.HEALTHY, HealthStatus.DRAINING);
    // The type's version names the epoch for both: the variant is a function of the epoch's content.
    assertThat(toArmeria.getVersionInfo()).isEqualTo("1").isEqualTo(toJava.getVersionInfo());
  }

  @Test
  void anUndrainReachesArmeriaAsAChangedAssignment() throws Exception {
    start(null);
    publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY), endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = sotw(ARMERIA);
    DiscoveryResponse first = armeria.next();
    armeria.send(RecordingAdsClient.ack(first, List.of("web")));

    publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY), endpoint(1002, 1, HealthStatus.HEALTHY)));

    DiscoveryResponse second = armeria.next();
    assertThat(second.getVersionInfo()).isEqualTo("2");
    assertThat(assignment(second).getEndpoints(0).getLbEndpointsList())
        .extracting(LbEndpoint::getHealthStatus).containsExactly(HealthStatus.HEALTHY, HealthStatus.HEALTHY);
  }

  @Test
  void aGroupThatSaysOmitGetsNoDrainingEndpointAndPrioritiesStayDense() throws Exception {
    start(DrainingAs.OMIT);
    // Priority 0 holds only the draining endpoint: left out, priority 1 becomes priority 0.
    publish(locality("a", 0, endpoint(1001, 3, HealthStatus.DRAINING)),
        locality("b", 1, endpoint(1002, 2, HealthStatus.HEALTHY), endpoint(1003, 5, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = sotw(ARMERIA);
    RecordingAdsClient java = sotw(GRPC_JAVA);

    ClusterLoadAssignment toArmeria = assignment(armeria.next());
    assertThat(toArmeria.getEndpointsList()).hasSize(1);
    LocalityLbEndpoints only = toArmeria.getEndpoints(0);
    assertThat(only.getPriority()).isZero();
    assertThat(only.getLocality()).isEqualTo(Locality.newBuilder().setZone("b").build());
    assertThat(only.getLoadBalancingWeight().getValue()).isEqualTo(2);
    assertThat(only.getLbEndpointsList()).extracting(e -> e.getEndpoint().getAddress().getSocketAddress().getPortValue())
        .containsExactly(1002);
    assertThat(assignment(java.next()).getEndpointsList()).hasSize(2);
  }

  @Test
  void anAssignmentWithNothingDrainingIsTheSameResourceForEveryClient() throws Exception {
    start(null);
    publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY)));
    RecordingAdsClient armeria = sotw(ARMERIA);
    RecordingAdsClient java = sotw(GRPC_JAVA);

    assertThat(armeria.<DiscoveryResponse>next().getResources(0))
        .isEqualTo(java.<DiscoveryResponse>next().getResources(0));
  }

  /**
   * A rollback looks for a refused version among the epochs, which hold the snapshot's resource,
   * not the variant: a standing NACK of a variant is reported under the snapshot's version.
   */
  @Test
  void aNackOfAVariantStandsAgainstTheSnapshotsVersion() throws Exception {
    start(null);
    Snapshot s = publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY),
        endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = sotw(ARMERIA);
    DiscoveryResponse first = armeria.next();
    armeria.send(DiscoveryRequest.newBuilder().setTypeUrl(EDS).addResourceNames("web")
        .setResponseNonce(first.getNonce())
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage("no thanks")).build());

    String snapshotVersion = s.resources(XdsType.ENDPOINT).get("web").version();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(server.clients()).singleElement()
            .satisfies(c -> assertThat(c.types().get(EDS).refusing()).containsExactly(Map.entry("web", snapshotVersion))));
  }

  @Test
  void aDeltaClientSeesTheVariantUnderAVersionOfItsOwnContent() throws Exception {
    start(null);
    Snapshot s = publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY),
        endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = new RecordingAdsClient(server.port()).openDelta();
    closing.add(armeria);
    armeria.send(DeltaDiscoveryRequest.newBuilder().setNode(ARMERIA).setTypeUrl(EDS)
        .addResourceNamesSubscribe("web").build());

    DeltaDiscoveryResponse r = armeria.next();
    ClusterLoadAssignment got = r.getResources(0).getResource().unpack(ClusterLoadAssignment.class);
    assertThat(got.getEndpoints(0).getLbEndpoints(1).getHealthStatus()).isEqualTo(HealthStatus.UNHEALTHY);
    String snapshotVersion = s.resources(XdsType.ENDPOINT).get("web").version();
    assertThat(r.getResources(0).getVersion())
        .isEqualTo(SnapshotBuilder.versionOf(got))
        .isNotEqualTo(snapshotVersion);
  }
}
