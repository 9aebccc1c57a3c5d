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
import io.signalbox.controlplane.translate.DropOverloads;
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
 * Envoy honours one {@code drop_overloads} category and NACKs more (issue 31 item 3): an Envoy
 * client is sent the largest alone, every other client all of them in order. Raw ADS clients over
 * real gRPC identify as each kind by their node's user agent, as the real clients do.
 */
class DropsForClientKindsTest {

  private static final String EDS = XdsType.ENDPOINT.typeUrl();
  private static final Node ENVOY = Node.newBuilder().setId("envoy-1").setCluster("edge")
      .setUserAgentName("envoy").setUserAgentVersion("1.33.0").build();
  private static final Node ENVOY_TOO = ENVOY.toBuilder().setId("envoy-2").build();
  private static final Node GRPC_JAVA = Node.newBuilder().setId("java-1").setCluster("shop-java")
      .setUserAgentName("gRPC Java").setUserAgentVersion("1.85.1").build();
  private static final Node GRPC_JS = Node.newBuilder().setId("js-1").setCluster("shop-js")
      .setUserAgentName("gRPC Node Pure JS").build();
  private static final List<DropOverloads.Drop> TWO = List.of(
      new DropOverloads.Drop("signalbox_operator", 200_000), new DropOverloads.Drop("signalbox_overload", 350_000));

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

  private void start(List<ClientKindSettings> groups) {
    XdsSettings defaults = XdsSettings.defaults();
    EdgeSettings edge = new EdgeSettings(null, null, defaults.limits(), defaults.maxConnectionAge(),
        defaults.maxConnectionAgeGrace(), new ClientKinds(groups));
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(), edge, r -> {});
  }

  private RecordingAdsClient sotw(Node node) {
    RecordingAdsClient client = new RecordingAdsClient(server.port()).openSotw();
    closing.add(client);
    client.send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS).addResourceNames("web").build());
    return client;
  }

  private static LbEndpoint endpoint(int port, HealthStatus health) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))))
        .setHealthStatus(health)
        .setLoadBalancingWeight(UInt32Value.of(1))
        .build();
  }

  private Snapshot publish(List<DropOverloads.Drop> drops, LbEndpoint... endpoints) {
    ClusterLoadAssignment cla = DropOverloads.of(ClusterLoadAssignment.newBuilder().setClusterName("web")
        .addEndpoints(LocalityLbEndpoints.newBuilder().setLocality(Locality.newBuilder().setZone("a"))
            .setLoadBalancingWeight(UInt32Value.of(endpoints.length)).addAllLbEndpoints(List.of(endpoints)))
        .build(), drops);
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

  private static List<String> drops(ClusterLoadAssignment cla) {
    return cla.getPolicy().getDropOverloadsList().stream()
        .map(d -> d.getCategory() + " " + d.getDropPercentage().getNumerator() + "/" + d.getDropPercentage().getDenominator())
        .toList();
  }

  @Test
  void envoyGetsTheLargestCategoryAloneWhileGrpcClientsGetEveryCategoryInOrder() throws Exception {
    start(List.of());
    publish(TWO, endpoint(1001, HealthStatus.HEALTHY));
    RecordingAdsClient envoy = sotw(ENVOY);
    RecordingAdsClient java = sotw(GRPC_JAVA);
    RecordingAdsClient js = sotw(GRPC_JS);

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
    start(List.of());
    Snapshot s = publish(TWO, endpoint(1001, HealthStatus.HEALTHY));
    List<DeltaDiscoveryResponse> responses = new ArrayList<>();
    for (Node node : List.of(ENVOY, ENVOY_TOO, GRPC_JAVA)) {
      RecordingAdsClient client = new RecordingAdsClient(server.port()).openDelta();
      closing.add(client);
      client.send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS)
          .addResourceNamesSubscribe("web").build());
      responses.add(client.next());
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
    start(List.of());
    publish(List.of(new DropOverloads.Drop("signalbox_operator", 500_000)), endpoint(1001, HealthStatus.HEALTHY));
    RecordingAdsClient envoy = sotw(ENVOY);
    RecordingAdsClient java = sotw(GRPC_JAVA);

    assertThat(envoy.<DiscoveryResponse>next().getResources(0)).isEqualTo(java.<DiscoveryResponse>next().getResources(0));
  }

  @Test
  void anEnvoyGroupThatOmitsDrainingEndpointsGetsBothChanges() throws Exception {
    start(List.of(new ClientKindSettings(List.of("edge"), ClientKind.ENVOY, DrainingAs.OMIT)));
    publish(TWO, endpoint(1001, HealthStatus.HEALTHY), endpoint(1002, HealthStatus.DRAINING));
    RecordingAdsClient envoy = sotw(ENVOY);

    ClusterLoadAssignment got = assignment(envoy.next());

    assertThat(drops(got)).containsExactly("signalbox_overload 350000/MILLION");
    assertThat(got.getEndpoints(0).getLbEndpointsList())
        .extracting(e -> e.getEndpoint().getAddress().getSocketAddress().getPortValue()).containsExactly(1001);
  }

  @Test
  void theFirstOfEqualSharesIsTheOneEnvoyGets() throws Exception {
    start(List.of());
    publish(List.of(new DropOverloads.Drop("first", 300_000), new DropOverloads.Drop("second", 300_000)),
        endpoint(1001, HealthStatus.HEALTHY));

    assertThat(drops(assignment(sotw(ENVOY).next()))).containsExactly("first 300000/MILLION");
  }
}
