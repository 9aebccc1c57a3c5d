package io.signalbox.controlplane.xds;

import static io.signalbox.controlplane.xds.ClientKindsEdge.GRPC_JAVA;
import static io.signalbox.controlplane.xds.ClientKindsEdge.assignment;
import static io.signalbox.controlplane.xds.ClientKindsEdge.endpoint;
import static io.signalbox.controlplane.xds.ClientKindsEdge.locality;
import static io.signalbox.controlplane.xds.ClientKindsEdge.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.signalbox.controlplane.config.ClientKindSettings;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.translate.DropOverloads;
import io.signalbox.validation.ClientKind;
import io.signalbox.validation.DrainingAs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Envoy honours one {@code drop_overloads} category and NACKs more (issue 31 item 3): an Envoy
 * client is sent the largest alone, every other client all of them in order. Raw ADS clients over
 * real gRPC identify as each kind by their node's user agent, as the real clients do.
 */
class DropsForClientKindsTest {

  private static final Node ENVOY = Node.newBuilder().setId("envoy-1").setCluster("edge")
      .setUserAgentName("envoy").setUserAgentVersion("1.33.0").build();
  private static final Node ENVOY_TOO = ENVOY.toBuilder().setId("envoy-2").build();
  private static final Node GRPC_JS = Node.newBuilder().setId("js-1").setCluster("shop-js")
      .setUserAgentName("gRPC Node Pure JS").build();
  private static final List<DropOverloads.Drop> TWO = List.of(
      new DropOverloads.Drop("signalbox_operator", 200_000), new DropOverloads.Drop("signalbox_overload", 350_000));

  private final ClientKindsEdge edge = new ClientKindsEdge();

  @AfterEach
  void close() throws Exception {
    edge.close();
  }

  private Snapshot publish(List<DropOverloads.Drop> drops, LbEndpoint... endpoints) {
    return edge.publish(DropOverloads.of(web(locality("a", 0, endpoints)), drops));
  }

  private static List<String> drops(ClusterLoadAssignment cla) {
    return cla.getPolicy().getDropOverloadsList().stream()
        .map(d -> d.getCategory() + " " + d.getDropPercentage().getNumerator() + "/" + d.getDropPercentage().getDenominator())
        .toList();
  }

  @Test
  void envoyGetsTheLargestCategoryAloneWhileGrpcClientsGetEveryCategoryInOrder() throws Exception {
    edge.start(List.of());
    publish(TWO, endpoint(1001, 1, HealthStatus.HEALTHY));
    RecordingAdsClient envoy = edge.sotw(ENVOY);
    RecordingAdsClient java = edge.sotw(GRPC_JAVA);
    RecordingAdsClient js = edge.sotw(GRPC_JS);

    DiscoveryResponse toEnvoy = envoy.next();
    DiscoveryResponse toJava = java.next();
    DiscoveryResponse toJs = js.next();

    assertThat(drops(assignment(toEnvoy))).containsExactly("signalbox_overload 350000/MILLION");
    assertThat(drops(assignment(toJava)))
        .containsExactly("signalbox_operator 200000/MILLION", "signalbox_overload 350000/MILLION");
    assertThat(assignment(toJs)).isEqualTo(assignment(toJava));
    // Everything but the drops is the epoch's, and the type's version names the epoch for all.
    assertThat(assignment(toEnvoy).getEndpointsList()).isEqualTo(assignment(toJava).getEndpointsList());
    assertThat(toEnvoy.getVersionInfo()).isEqualTo("1").isEqualTo(toJava.getVersionInfo());
  }

  @Test
  void oneContentHasOneVersionWhicheverEnvoyClientItGoesTo() throws Exception {
    edge.start(List.of());
    Snapshot s = publish(TWO, endpoint(1001, 1, HealthStatus.HEALTHY));
    List<DeltaDiscoveryResponse> responses = new ArrayList<>();
    for (Node node : List.of(ENVOY, ENVOY_TOO, GRPC_JAVA)) {
      responses.add(edge.delta(node).next());
    }

    ClusterLoadAssignment toEnvoy = responses.get(0).getResources(0).getResource().unpack(ClusterLoadAssignment.class);
    String snapshotVersion = s.resources(XdsType.ENDPOINT).get("web").version();
    assertThat(responses.get(0).getResources(0).getVersion())
        .isEqualTo(SnapshotBuilder.versionOf(toEnvoy))
        .isEqualTo(responses.get(1).getResources(0).getVersion())
        .isNotEqualTo(snapshotVersion);
    assertThat(responses.get(1).getResources(0).getResource()).isEqualTo(responses.get(0).getResources(0).getResource());
    assertThat(responses.get(2).getResources(0).getVersion()).isEqualTo(snapshotVersion);
  }

  @Test
  void anAssignmentWithOneCategoryIsTheSameResourceForEnvoyAndGrpc() throws Exception {
    edge.start(List.of());
    publish(List.of(new DropOverloads.Drop("signalbox_operator", 500_000)), endpoint(1001, 1, HealthStatus.HEALTHY));
    RecordingAdsClient envoy = edge.sotw(ENVOY);
    RecordingAdsClient java = edge.sotw(GRPC_JAVA);

    assertThat(envoy.<DiscoveryResponse>next().getResources(0)).isEqualTo(java.<DiscoveryResponse>next().getResources(0));
  }

  @Test
  void anEnvoyGroupThatOmitsDrainingEndpointsGetsBothChanges() throws Exception {
    edge.start(List.of(new ClientKindSettings(List.of("edge"), ClientKind.ENVOY, DrainingAs.OMIT)));
    publish(TWO, endpoint(1001, 1, HealthStatus.HEALTHY), endpoint(1002, 1, HealthStatus.DRAINING));
    RecordingAdsClient envoy = edge.sotw(ENVOY);

    ClusterLoadAssignment got = assignment(envoy.next());

    assertThat(drops(got)).containsExactly("signalbox_overload 350000/MILLION");
    assertThat(got.getEndpoints(0).getLbEndpointsList())
        .extracting(e -> e.getEndpoint().getAddress().getSocketAddress().getPortValue()).containsExactly(1001);
  }

  @Test
  void theFirstOfEqualSharesIsTheOneEnvoyGets() throws Exception {
    edge.start(List.of());
    publish(List.of(new DropOverloads.Drop("first", 300_000), new DropOverloads.Drop("second", 300_000)),
        endpoint(1001, 1, HealthStatus.HEALTHY));

    assertThat(drops(assignment(edge.sotw(ENVOY).next()))).containsExactly("first 300000/MILLION");
  }
}
