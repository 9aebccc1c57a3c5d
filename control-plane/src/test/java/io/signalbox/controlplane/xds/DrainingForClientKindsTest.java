package io.signalbox.controlplane.xds;

import static io.signalbox.controlplane.xds.ClientKindsEdge.EDS;
import static io.signalbox.controlplane.xds.ClientKindsEdge.GRPC_JAVA;
import static io.signalbox.controlplane.xds.ClientKindsEdge.assignment;
import static io.signalbox.controlplane.xds.ClientKindsEdge.endpoint;
import static io.signalbox.controlplane.xds.ClientKindsEdge.locality;
import static io.signalbox.controlplane.xds.ClientKindsEdge.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.signalbox.controlplane.config.ClientKindSettings;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A drain must stop new work on every supported client (issue 33): Armeria's xDS module treats a
 * DRAINING endpoint as healthy, so its node group gets the endpoint as UNHEALTHY (or not at all),
 * while every other client keeps getting it as DRAINING. Raw ADS clients over real gRPC play both:
 * an Armeria-like node (no user agent, a node cluster the config names) and a grpc-java node.
 */
class DrainingForClientKindsTest {

  private static final Node ARMERIA = Node.newBuilder().setId("armeria-1").setCluster("shop-armeria").build();

  private final ClientKindsEdge edge = new ClientKindsEdge();

  @AfterEach
  void close() throws Exception {
    edge.close();
  }

  /** Armeria's node group, with {@code drainingAs} (null: the kind's default). */
  private void start(DrainingAs drainingAs) {
    edge.start(List.of(new ClientKindSettings(List.of("shop-armeria"), ClientKind.ARMERIA, drainingAs)));
  }

  private Snapshot publish(LocalityLbEndpoints... localities) {
    return edge.publish(web(localities));
  }

  @Test
  void armeriaGetsADrainingEndpointAsUnhealthyWhileGrpcJavaGetsItAsDraining() throws Exception {
    start(null);
    publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY), endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = edge.sotw(ARMERIA);
    RecordingAdsClient java = edge.sotw(GRPC_JAVA);

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
    RecordingAdsClient armeria = edge.sotw(ARMERIA);
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
    RecordingAdsClient armeria = edge.sotw(ARMERIA);
    RecordingAdsClient java = edge.sotw(GRPC_JAVA);

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
    RecordingAdsClient armeria = edge.sotw(ARMERIA);
    RecordingAdsClient java = edge.sotw(GRPC_JAVA);

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
    RecordingAdsClient armeria = edge.sotw(ARMERIA);
    DiscoveryResponse first = armeria.next();
    armeria.send(DiscoveryRequest.newBuilder().setTypeUrl(EDS).addResourceNames("web")
        .setResponseNonce(first.getNonce())
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage("no thanks")).build());

    String snapshotVersion = s.resources(XdsType.ENDPOINT).get("web").version();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(edge.server().clients()).singleElement()
            .satisfies(c -> assertThat(c.types().get(EDS).refusing()).containsExactly(Map.entry("web", snapshotVersion))));
  }

  @Test
  void aDeltaClientSeesTheVariantUnderAVersionOfItsOwnContent() throws Exception {
    start(null);
    Snapshot s = publish(locality("a", 0, endpoint(1001, 1, HealthStatus.HEALTHY),
        endpoint(1002, 1, HealthStatus.DRAINING)));
    RecordingAdsClient armeria = edge.delta(ARMERIA);

    DeltaDiscoveryResponse r = armeria.next();
    ClusterLoadAssignment got = r.getResources(0).getResource().unpack(ClusterLoadAssignment.class);
    assertThat(got.getEndpoints(0).getLbEndpoints(1).getHealthStatus()).isEqualTo(HealthStatus.UNHEALTHY);
    String snapshotVersion = s.resources(XdsType.ENDPOINT).get("web").version();
    assertThat(r.getResources(0).getVersion())
        .isEqualTo(SnapshotBuilder.versionOf(got))
        .isNotEqualTo(snapshotVersion);
  }
}
