package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
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
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real xDS server on loopback, its edge told the client kinds by the given node groups, serving
 * one EDS resource, {@code web}, epoch after epoch: for tests of what each kind of client is sent.
 * Clients are raw ADS clients over real gRPC that subscribe to {@code web} as the given node.
 */
final class ClientKindsEdge implements AutoCloseable {

  static final String EDS = XdsType.ENDPOINT.typeUrl();
  static final Node GRPC_JAVA = Node.newBuilder().setId("java-1").setCluster("shop-java")
      .setUserAgentName("gRPC Java").setUserAgentVersion("1.85.1").build();

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final List<AutoCloseable> closing = new ArrayList<>();
  private Snapshot last;
  private long epoch = 1;
  private AdsServer server;

  /** Starts the server; {@code groups} as the config's {@code xds.clientKinds}. */
  void start(List<ClientKindSettings> groups) {
    XdsSettings defaults = XdsSettings.defaults();
    EdgeSettings edge = new EdgeSettings(null, null, defaults.limits(), defaults.maxConnectionAge(),
        defaults.maxConnectionAgeGrace(), new ClientKinds(groups));
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(), edge, r -> {});
  }

  AdsServer server() {
    return server;
  }

  /** A state-of-the-world client as {@code node}, subscribed to {@code web}. */
  RecordingAdsClient sotw(Node node) {
    RecordingAdsClient client = new RecordingAdsClient(server.port()).openSotw();
    closing.add(client);
    client.send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS).addResourceNames("web").build());
    return client;
  }

  /** A delta client as {@code node}, subscribed to {@code web}. */
  RecordingAdsClient delta(Node node) {
    RecordingAdsClient client = new RecordingAdsClient(server.port()).openDelta();
    closing.add(client);
    client.send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS)
        .addResourceNamesSubscribe("web").build());
    return client;
  }

  /** Publishes the next epoch, holding {@code web} alone. */
  Snapshot publish(ClusterLoadAssignment web) {
    Snapshot s = builder.candidate(List.of(new TranslatedResource(XdsType.ENDPOINT, "web", web, Set.of())), Map.of(),
        last, Provenance.newBuilder().setCause("test").build()).seal(epoch++, Instant.EPOCH);
    last = s;
    server.publish(s);
    return s;
  }

  static ClusterLoadAssignment web(LocalityLbEndpoints... localities) {
    return ClusterLoadAssignment.newBuilder().setClusterName("web").addAllEndpoints(List.of(localities)).build();
  }

  /** Zone {@code zone}, beyond priority 0 in a sub-zone named for the priority; weighs its endpoints' sum. */
  static LocalityLbEndpoints locality(String zone, int priority, LbEndpoint... endpoints) {
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

  static LbEndpoint endpoint(int port, int weight, HealthStatus health) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
            .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))))
        .setHealthStatus(health)
        .setLoadBalancingWeight(UInt32Value.of(weight))
        .build();
  }

  /** The one assignment a state-of-the-world response holds. */
  static ClusterLoadAssignment assignment(DiscoveryResponse r) throws InvalidProtocolBufferException {
    assertThat(r.getResourcesCount()).isEqualTo(1);
    return r.getResources(0).unpack(ClusterLoadAssignment.class);
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
  }
}
