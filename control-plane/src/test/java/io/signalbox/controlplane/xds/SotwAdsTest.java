package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SotwAdsTest {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  private AdsServer server;
  private RecordingAdsClient client;
  private final TestResources resources = new TestResources();

  @BeforeEach
  void start() {
    server = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
    client = new RecordingAdsClient(server.port()).openSotw();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private static DiscoveryRequest subscribe(String typeUrl, String... names) {
    return DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("n1")).setTypeUrl(typeUrl)
        .addAllResourceNames(List.of(names)).build();
  }

  @Test
  void sendsOnlyTheChangedAssignmentWhenOneEndpointChanges() throws Exception {
    server.publish(resources.with("a", List.of(1001), "b", List.of(2001)));
    client.send(subscribe(EDS, "a", "b"));
    DiscoveryResponse first = client.next();
    assertThat(first.getResourcesCount()).isEqualTo(2);
    assertThat(first.getVersionInfo()).isEqualTo("1");
    client.send(RecordingAdsClient.ack(first, List.of("a", "b")));

    server.publish(resources.with("a", List.of(1001), "b", List.of(2001, 2002)));

    DiscoveryResponse second = client.next();
    assertThat(second.getVersionInfo()).isEqualTo("2");
    assertThat(second.getResourcesList()).hasSize(1);
    assertThat(second.getResources(0).unpack(ClusterLoadAssignment.class).getClusterName()).isEqualTo("b");
  }

  /**
   * A client that moves here from another replica (or back to a restarted one) asks with the
   * version it holds: when that is the current version, it holds everything it asks for, so nothing
   * is re-sent and nothing taken away; the next change sends only what changed.
   */
  @Test
  void aClientReconnectingWithTheCurrentVersionIsSentNothingUntilSomethingChanges() throws Exception {
    Snapshot first = resources.with("a", List.of(1001), "b", List.of(2001));
    server.publish(first);
    String cdsVersion = first.resources(XdsType.CLUSTER).version();
    String edsVersion = first.resources(XdsType.ENDPOINT).version();

    client.send(subscribe(CDS).toBuilder().setVersionInfo(cdsVersion).build());
    client.send(subscribe(EDS, "a", "b").toBuilder().setVersionInfo(edsVersion).build());

    // Both requests handled, each found current: the stream holds the epoch for both types. A
    // response to either would come before the change's below (one stream, in order), so the
    // change being the next response is what shows nothing was re-sent.
    await().atMost(java.time.Duration.ofSeconds(5)).until(() -> server.clients().size() == 1
        && server.clients().get(0).types().keySet().equals(java.util.Set.of(CDS, EDS))
        && server.clients().get(0).epoch() == first.epoch());
    assertThat(client.unreadCount()).isZero();

    server.publish(resources.with("a", List.of(1001), "b", List.of(2001, 2002)));
    DiscoveryResponse changed = client.next();
    assertThat(changed.getTypeUrl()).isEqualTo(EDS);
    assertThat(changed.getResourcesList()).hasSize(1);
    assertThat(changed.getResources(0).unpack(ClusterLoadAssignment.class).getClusterName()).isEqualTo("b");
  }

  @Test
  void aClientReconnectingWithAnOlderOrAdjustedVersionIsSentEverything() throws Exception {
    server.publish(resources.with("a", List.of(1001), "b", List.of(2001)));
    Snapshot second = resources.with("a", List.of(1001), "b", List.of(2001, 2002));
    server.publish(second);

    client.send(subscribe(EDS, "a", "b").toBuilder().setVersionInfo("1").build());
    DiscoveryResponse all = client.next();
    assertThat(all.getResourcesList()).hasSize(2);

    RecordingAdsClient other = new RecordingAdsClient(server.port()).openSotw();
    try {
      other.send(subscribe(EDS, "a", "b").toBuilder().setVersionInfo(second.resources(XdsType.ENDPOINT).version()
          + ".1").build());
      assertThat(other.<DiscoveryResponse>next().getResourcesList()).hasSize(2);
    } finally {
      other.close();
    }
  }

  @Test
  void aMissingNameDoesNotStallTheOthers() throws Exception {
    server.publish(resources.with("a", List.of(1001)));
    client.send(subscribe(EDS, "a", "does-not-exist"));

    DiscoveryResponse response = client.next();

    assertThat(response.getResourcesList()).hasSize(1);
    assertThat(response.getResources(0).unpack(ClusterLoadAssignment.class).getClusterName()).isEqualTo("a");
  }

  @Test
  void aNackedVersionIsNotResentAndTheClientIsTrackedAsNacking() throws Exception {
    server.publish(resources.with("a", List.of(1001), "b", List.of(2001)));
    client.send(subscribe(EDS, "a", "b"));
    client.send(RecordingAdsClient.ack(client.next(), List.of("a", "b")));
    server.publish(resources.with("a", List.of(1002), "b", List.of(2001)));
    DiscoveryResponse bad = client.next();

    client.send(DiscoveryRequest.newBuilder().setTypeUrl(EDS).setVersionInfo("1")
        .setResponseNonce(bad.getNonce()).addAllResourceNames(List.of("a", "b"))
        .setErrorDetail(Status.newBuilder().setCode(3).setMessage("a is bad")).build());
    await().until(() -> nack(EDS) != null);
    // A later epoch that changes only b: the client gets b, and a again at the version it holds (so
    // that it ACKs the new epoch) — never the version of a it rejected.
    server.publish(resources.with("a", List.of(1002), "b", List.of(2002)));
    DiscoveryResponse next = client.next();

    assertThat(next.getResourcesList()).extracting(r -> r.unpack(ClusterLoadAssignment.class))
        .extracting(ClusterLoadAssignment::getClusterName,
            cla -> cla.getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress().getPortValue())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1001), org.assertj.core.groups.Tuple.tuple("b", 2002));
    assertThat(client.sotw).hasSize(3);
    assertThat(nack(EDS).message()).isEqualTo("a is bad");
    assertThat(nack(EDS).epoch()).isEqualTo(2);
    assertThat(server.clients().get(0).types().get(EDS).ackedEpoch()).isEqualTo(1);
  }

  @Test
  void tracksAcksPerType() throws Exception {
    server.publish(resources.with("a", List.of(1001)));
    client.send(subscribe(CDS));
    DiscoveryResponse cds = client.next();
    assertThat(cds.getResources(0).unpack(Cluster.class).getName()).isEqualTo("a");
    client.send(RecordingAdsClient.ack(cds, List.of()));

    await().untilAsserted(() -> {
      ClientStatus c = server.clients().get(0);
      assertThat(c.nodeId()).isEqualTo("n1");
      assertThat(c.nodeCluster()).isEqualTo("test-fleet");
      assertThat(c.types().get(CDS).ackedEpoch()).isEqualTo(1);
      assertThat(c.types().get(CDS).wildcard()).isTrue();
      assertThat(c.types().get(CDS).nack()).isNull();
    });
  }

  @Test
  void keepsARemovedClusterWhileARouteTheClientHoldsStillNamesIt() throws Exception {
    String rds = XdsType.ROUTE.typeUrl();
    server.publish(resources.with("a", List.of(1001), "b", List.of(2001)));
    client.send(subscribe(CDS));
    DiscoveryResponse cds = client.next();
    client.send(RecordingAdsClient.ack(cds, List.of()));
    client.send(subscribe(rds, "app-routes"));
    DiscoveryResponse routes = client.next();
    client.send(RecordingAdsClient.ack(routes, List.of("app-routes")));
    await().until(() -> server.clients().get(0).types().get(rds).ackedEpoch() == 1);

    // Epoch 2 drops cluster b and the route to it.
    Snapshot two = resources.with("a", List.of(1001));
    server.publish(two);
    DiscoveryResponse newRoutes = client.next();
    assertThat(newRoutes.getTypeUrl()).isEqualTo(rds);
    assertThat(client.unreadCount()).isZero();

    client.send(RecordingAdsClient.ack(newRoutes, List.of("app-routes")));
    DiscoveryResponse newClusters = client.next();
    assertThat(newClusters.getTypeUrl()).isEqualTo(CDS);
    assertThat(newClusters.getResourcesList()).extracting(r -> r.unpack(Cluster.class).getName())
        .containsExactly("a");
  }

  private NackStatus nack(String typeUrl) {
    List<ClientStatus> clients = server.clients();
    return clients.isEmpty() || clients.get(0).types().get(typeUrl) == null
        ? null : clients.get(0).types().get(typeUrl).nack();
  }

  /**
   * The SotW twin of the delta case in DeltaAdsTest: a nonce this server never sent (here 1 MiB of
   * it), even as a NACK, is stale and the request is ignored, as the xDS protocol says; the stream
   * is served on and records no NACK.
   */
  @Test
  void aRequestWithANonceNeverSentIsIgnoredAndTheStreamServesOn() throws Exception {
    server.publish(resources.with("a", List.of(1001), "b", List.of(2001)));
    client.send(subscribe(EDS, "a"));
    DiscoveryResponse first = client.next();
    client.send(RecordingAdsClient.ack(first, List.of("a")));

    client.send(RecordingAdsClient.ack(first, List.of("a")).toBuilder().setResponseNonce("n".repeat(1 << 20))
        .setErrorDetail(Status.newBuilder().setMessage("invented")).build());
    client.send(subscribe(CDS));

    DiscoveryResponse next = client.next();
    assertThat(client.error()).isNull();
    assertThat(next.getTypeUrl()).isEqualTo(CDS);
    assertThat(server.clients().get(0).types().get(EDS).nack()).isNull();
  }
}
