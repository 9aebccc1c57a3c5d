package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The xDS transport protocol ("xDS REST and gRPC protocol", envoyproxy.io api-docs/xds_protocol),
 * case by case, over real gRPC with a raw client, in both variants. Each test names the section it
 * holds Signalbox to; what other tests already prove (ACK and NACK bookkeeping in
 * {@link SotwAdsTest} and {@link DeltaAdsTest}, per-resource errors in {@link ResourceErrorsTest},
 * malformed requests in {@code BadXdsRequestsIT}) is not repeated here.
 */
class XdsProtocolConformanceTest {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  private AdsServer server;
  private RecordingAdsClient client;
  private final TestResources resources = new TestResources();

  @BeforeEach
  void start() {
    server = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    server.close();
  }

  private static DiscoveryRequest sotw(String typeUrl, List<String> names) {
    return DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("conformance")).setTypeUrl(typeUrl)
        .addAllResourceNames(names).build();
  }

  private static DeltaDiscoveryRequest.Builder delta(String typeUrl) {
    return DeltaDiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("conformance")).setTypeUrl(typeUrl);
  }

  private static DeltaDiscoveryRequest ack(DeltaDiscoveryResponse r) {
    return DeltaDiscoveryRequest.newBuilder().setTypeUrl(r.getTypeUrl()).setResponseNonce(r.getNonce()).build();
  }

  private static List<String> clusterNames(DiscoveryResponse r) {
    return r.getResourcesList().stream().map(any -> {
      try {
        return any.unpack(Cluster.class).getName();
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new AssertionError(e);
      }
    }).sorted().toList();
  }

  private static List<String> assignmentNames(DiscoveryResponse r) {
    return r.getResourcesList().stream().map(any -> {
      try {
        return any.unpack(ClusterLoadAssignment.class).getClusterName();
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new AssertionError(e);
      }
    }).sorted().toList();
  }

  private static List<String> names(DeltaDiscoveryResponse r) {
    return r.getResourcesList().stream().map(Resource::getName).sorted().toList();
  }

  /**
   * "Basic Protocol Overview" and "ACK/NACK and resource type instance version": every response
   * carries a version_info and a nonce, and a nonce identifies one response of the stream, across
   * all its types.
   */
  @Test
  void sotwResponsesCarryAVersionAndANonceNoOtherResponseOfTheStreamHad() throws Exception {
    client = new RecordingAdsClient(server.port()).openSotw();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(sotw(CDS, List.of()));
    client.send(sotw(EDS, List.of("a", "b")));
    Set<String> nonces = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      DiscoveryResponse r = client.next();
      assertThat(r.getVersionInfo()).as("version_info").isNotEmpty();
      assertThat(nonces.add(r.getNonce())).as("nonce %s is new on this stream", r.getNonce()).isTrue();
      client.send(RecordingAdsClient.ack(r, r.getTypeUrl().equals(CDS) ? List.of() : List.of("a", "b")));
    }
    for (int change = 0; change < 2; change++) {
      server.publish(resources.with("a", List.of(1), "b", List.of(2, 3 + change)));
      DiscoveryResponse r = client.next();
      assertThat(r.getVersionInfo()).as("version_info").isNotEmpty();
      assertThat(nonces.add(r.getNonce())).as("nonce %s is new on this stream", r.getNonce()).isTrue();
      client.send(RecordingAdsClient.ack(r, List.of("a", "b")));
    }
  }

  /**
   * "How the client specifies what resources to return": {@code *} subscribes to the whole type
   * like the legacy empty list does, and a name beside it adds nothing and takes nothing away.
   * "Deleting resources": a State of the World Listener or Cluster response that leaves a resource
   * out deletes it.
   */
  @Test
  void sotwExplicitWildcardGetsEveryClusterAndALaterResponseLeavesARemovedOneOut() throws Exception {
    client = new RecordingAdsClient(server.port()).openSotw();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(sotw(CDS, List.of("*", "a")));
    DiscoveryResponse all = client.next();
    assertThat(clusterNames(all)).containsExactly("a", "b");
    client.send(RecordingAdsClient.ack(all, List.of("*", "a")));

    server.publish(resources.with("a", List.of(1), "c", List.of(3)));
    DiscoveryResponse next = client.next();
    assertThat(clusterNames(next)).containsExactly("a", "c");
  }

  /**
   * "Unsubscribing From Resources": a name left out of the next request is unsubscribed, and asked
   * for again it is sent again, even unchanged (the client forgot it; go-control-plane#431 is the
   * bug this guards against).
   */
  @Test
  void sotwANameUnsubscribedAndSubscribedAgainIsSentAgain() throws Exception {
    client = new RecordingAdsClient(server.port()).openSotw();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(sotw(EDS, List.of("a", "b")));
    DiscoveryResponse both = client.next();
    assertThat(assignmentNames(both)).containsExactly("a", "b");
    client.send(RecordingAdsClient.ack(both, List.of("a")));
    await().until(() -> server.clients().get(0).types().get(EDS).subscribed() == 1);

    client.send(RecordingAdsClient.ack(both, List.of("a", "b")));
    DiscoveryResponse again = client.next();
    assertThat(assignmentNames(again)).contains("b");
  }

  /**
   * "Resource updates": a request that adds a name to the subscription is answered with that
   * resource at the version the stream holds, without waiting for a change.
   */
  @Test
  void sotwAddingANameIsAnsweredAtOnce() throws Exception {
    client = new RecordingAdsClient(server.port()).openSotw();
    Snapshot first = resources.with("a", List.of(1), "b", List.of(2));
    server.publish(first);
    client.send(sotw(EDS, List.of("a")));
    DiscoveryResponse a = client.next();
    assertThat(assignmentNames(a)).containsExactly("a");
    client.send(RecordingAdsClient.ack(a, List.of("a", "b")));

    DiscoveryResponse withB = client.next();
    assertThat(assignmentNames(withB)).contains("b");
    assertThat(withB.getVersionInfo()).isEqualTo(first.resources(XdsType.ENDPOINT).version());
    assertThat(withB.getNonce()).isNotEqualTo(a.getNonce());
  }

  /**
   * Incremental xDS, "Subscribing to Resources": a resource unsubscribed and subscribed again is
   * sent again though it did not change (go-control-plane#583).
   */
  @Test
  void deltaANameUnsubscribedAndSubscribedAgainIsSentAgain() throws Exception {
    client = new RecordingAdsClient(server.port()).openDelta();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(delta(EDS).addResourceNamesSubscribe("a").addResourceNamesSubscribe("b").build());
    DeltaDiscoveryResponse both = client.next();
    assertThat(names(both)).containsExactly("a", "b");
    client.send(ack(both));

    client.send(delta(EDS).addResourceNamesUnsubscribe("b").build());
    await().until(() -> server.clients().get(0).types().get(EDS).subscribed() == 1);
    client.send(delta(EDS).addResourceNamesSubscribe("b").build());

    DeltaDiscoveryResponse again = client.next();
    assertThat(names(again)).containsExactly("b");
    assertThat(again.getResources(0).getVersion()).isEqualTo(both.getResources(1).getVersion());
  }

  /**
   * Incremental xDS, "Wildcard subscriptions" and "Deleting resources": {@code *} subscribes to
   * every cluster, one that appears later is sent as it appears, one that goes is named in
   * removed_resources, and unsubscribing {@code *} withdraws what only it gave and ends the
   * deliveries.
   */
  @Test
  void deltaWildcardFollowsClustersAsTheyComeAndGoUntilUnsubscribed() throws Exception {
    client = new RecordingAdsClient(server.port()).openDelta();
    server.publish(resources.with("a", List.of(1)));
    client.send(delta(CDS).addResourceNamesSubscribe("*").build());
    DeltaDiscoveryResponse first = client.next();
    assertThat(names(first)).containsExactly("a");
    client.send(ack(first));

    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    DeltaDiscoveryResponse added = client.next();
    assertThat(names(added)).containsExactly("b");
    assertThat(added.getRemovedResourcesList()).isEmpty();
    client.send(ack(added));

    server.publish(resources.with("b", List.of(2)));
    DeltaDiscoveryResponse removed = client.next();
    assertThat(names(removed)).isEmpty();
    assertThat(removed.getRemovedResourcesList()).containsExactly("a");
    client.send(ack(removed));

    // What the client held through the wildcard alone, it is told to let go of: it asked for
    // nothing by name. The protocol leaves this to the server; a client that keeps it would hold
    // a cluster no update ever reaches again.
    client.send(delta(CDS).addResourceNamesUnsubscribe("*").build());
    DeltaDiscoveryResponse withdrawn = client.next();
    assertThat(names(withdrawn)).isEmpty();
    assertThat(withdrawn.getRemovedResourcesList()).containsExactly("b");
    client.send(ack(withdrawn));
    await().until(() -> server.clients().get(0).types().get(CDS).subscribed() == 0);

    server.publish(resources.with("b", List.of(2), "c", List.of(3)));
    // Nothing about c may arrive: an EDS subscription made after the publish is answered, and the
    // stream is ordered, so its answer being the next response shows no CDS delivery came first.
    client.send(delta(EDS).addResourceNamesSubscribe("b").build());
    DeltaDiscoveryResponse next = client.next();
    assertThat(next.getTypeUrl()).as("%s", next).isEqualTo(EDS);
  }

  /**
   * Incremental xDS, "Resource names" after a reconnect: initial_resource_versions tells the server
   * what the client holds; a resource held at its current version is not sent again, one held at
   * another version is.
   */
  @Test
  void deltaInitialResourceVersionsSendOnlyWhatDiffers() throws Exception {
    Snapshot published = resources.with("a", List.of(1), "b", List.of(2));
    server.publish(published);
    Map<String, String> current = Map.of("a", published.resources(XdsType.ENDPOINT).get("a").version(),
        "b", published.resources(XdsType.ENDPOINT).get("b").version());
    client = new RecordingAdsClient(server.port()).openDelta();
    client.send(delta(EDS).addResourceNamesSubscribe("a").addResourceNamesSubscribe("b")
        .putInitialResourceVersions("a", current.get("a"))
        .putInitialResourceVersions("b", current.get("b") + "-stale").build());

    DeltaDiscoveryResponse resync = client.next();
    assertThat(names(resync)).containsExactly("b");
    assertThat(resync.getRemovedResourcesList()).isEmpty();
  }

  /** Incremental xDS: each response's nonce is new on the stream, across types. */
  @Test
  void deltaNoncesAreNewOnTheStream() throws Exception {
    client = new RecordingAdsClient(server.port()).openDelta();
    server.publish(resources.with("a", List.of(1)));
    client.send(delta(CDS).addResourceNamesSubscribe("*").build());
    client.send(delta(EDS).addResourceNamesSubscribe("a").build());
    Set<String> nonces = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      DeltaDiscoveryResponse r = client.next();
      assertThat(nonces.add(r.getNonce())).as("nonce %s is new on this stream", r.getNonce()).isTrue();
      client.send(ack(r));
    }
    for (int change = 0; change < 2; change++) {
      server.publish(resources.with("a", List.of(1, 10 + change)));
      DeltaDiscoveryResponse r = client.next();
      assertThat(nonces.add(r.getNonce())).as("nonce %s is new on this stream", r.getNonce()).isTrue();
      client.send(ack(r));
    }
  }
}
