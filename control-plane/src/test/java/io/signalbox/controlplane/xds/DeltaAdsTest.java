package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.rpc.Status;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeltaAdsTest {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  private AdsServer server;
  private RecordingAdsClient client;
  private final TestResources resources = new TestResources();

  private void start() {
    server = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
    client = new RecordingAdsClient(server.port()).openDelta();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static DeltaDiscoveryRequest.Builder request(String typeUrl) {
    return DeltaDiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("d1")).setTypeUrl(typeUrl);
  }

  private static DeltaDiscoveryRequest ack(DeltaDiscoveryResponse r) {
    return DeltaDiscoveryRequest.newBuilder().setTypeUrl(r.getTypeUrl()).setResponseNonce(r.getNonce()).build();
  }

  private static List<String> names(DeltaDiscoveryResponse r) {
    return r.getResourcesList().stream().map(Resource::getName).toList();
  }

  @Test
  void subscribesAddsAndRemovesNames() throws Exception {
    start();
    server.publish(resources.with("a", List.of(1), "b", List.of(2), "c", List.of(3)));

    client.send(request(EDS).addResourceNamesSubscribe("a").build());
    DeltaDiscoveryResponse first = client.next();
    assertThat(names(first)).containsExactly("a");
    client.send(ack(first));

    client.send(request(EDS).addResourceNamesSubscribe("b").build());
    DeltaDiscoveryResponse second = client.next();
    assertThat(names(second)).containsExactly("b");
    client.send(ack(second));

    client.send(request(EDS).addResourceNamesUnsubscribe("a").build());
    // Unsubscribing needs no answer; a change to a must not reach the client any more.
    await().until(() -> server.clients().get(0).types().get(EDS).subscribed() == 1);
    server.publish(resources.with("a", List.of(11), "b", List.of(22), "c", List.of(3)));
    DeltaDiscoveryResponse third = client.next();
    assertThat(names(third)).containsExactly("b");
    assertThat(third.getRemovedResourcesList()).isEmpty();
  }

  @Test
  void reportsARemovedResourceAsRemoved() throws Exception {
    start();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(request(CDS).build());
    DeltaDiscoveryResponse all = client.next();
    assertThat(names(all)).containsExactly("a", "b");
    client.send(ack(all));

    server.publish(resources.with("a", List.of(1)));
    DeltaDiscoveryResponse removal = client.next();

    assertThat(removal.getResourcesList()).isEmpty();
    assertThat(removal.getRemovedResourcesList()).containsExactly("b");
  }

  @Test
  void aReconnectingClientLearnsWhatWasRemovedWhileItWasAway() throws Exception {
    start();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(request(CDS).build());
    DeltaDiscoveryResponse all = client.next();
    client.send(ack(all));
    Map<String, String> versions = all.getResourcesList().stream()
        .collect(Collectors.toMap(Resource::getName, Resource::getVersion));
    client.close();
    server.close();

    // A new server process whose current snapshot no longer has b and has changed a.
    server = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
    server.publish(resources.with("a", List.of(10)));
    client = new RecordingAdsClient(server.port()).openDelta();
    client.send(request(CDS).putAllInitialResourceVersions(versions).build());

    DeltaDiscoveryResponse resync = client.next();
    assertThat(resync.getRemovedResourcesList()).containsExactly("b");
    // Cluster a's own message did not change (only its endpoints did), so nothing is re-sent.
    assertThat(names(resync)).isEmpty();
    assertThat(versions.get("a")).isEqualTo(server.current().resources(XdsType.CLUSTER).get("a").version());
  }

  @Test
  void aNackedDeltaResourceIsNotResent() throws Exception {
    start();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(request(EDS).addResourceNamesSubscribe("a").addResourceNamesSubscribe("b").build());
    DeltaDiscoveryResponse first = client.next();
    client.send(ack(first));
    server.publish(resources.with("a", List.of(5), "b", List.of(2)));
    DeltaDiscoveryResponse bad = client.next();
    assertThat(names(bad)).containsExactly("a");

    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).setResponseNonce(bad.getNonce())
        .setErrorDetail(Status.newBuilder().setMessage("rejected a")).build());
    server.publish(resources.with("a", List.of(5), "b", List.of(6)));
    DeltaDiscoveryResponse next = client.next();

    // b is new; a comes again at the version the client holds, never at the one it rejected.
    assertThat(names(next)).containsExactly("a", "b");
    assertThat(next.getResources(0).getVersion()).isEqualTo(first.getResources(0).getVersion());
    assertThat(client.delta).hasSize(3);
  }

  @Test
  void aNonceNeverSentOrAlreadyAnsweredAnswersNothingAndTheStreamServesOn() throws Exception {
    start();
    server.publish(resources.with("a", List.of(1), "b", List.of(2)));
    client.send(request(EDS).addResourceNamesSubscribe("a").build());
    DeltaDiscoveryResponse first = client.next();
    client.send(ack(first));

    // Neither nonce (made up; already ACKed) names a response waiting for an answer: each answers
    // nothing, as a stale nonce answers nothing in the xDS protocol, and the stream is served on.
    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).setResponseNonce("n".repeat(1 << 20)).build());
    client.send(ack(first));
    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).addResourceNamesSubscribe("b").build());

    DeltaDiscoveryResponse next = client.next();
    assertThat(client.error()).isNull();
    assertThat(names(next)).containsExactly("b");
    assertThat(server.clients().get(0).types().get(EDS).nack()).isNull();
  }

}
