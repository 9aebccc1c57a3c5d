package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.ResourceError;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Per-resource errors (xRFC TP3), read by a raw client: a subscribed name no epoch has is
 * {@code NOT_FOUND} at once, reported once while it stands; a resource held back after this
 * client's NACK is {@code UNAVAILABLE} with the reason; an error never names a resource the same
 * response carries.
 */
class ResourceErrorsTest {

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
    client.close();
    server.close();
  }

  private static List<String> names(List<ResourceError> errors) {
    return errors.stream().map(e -> e.getResourceName().getName()).toList();
  }

  @Test
  void aSotwNameNoEpochHasIsNotFoundOnceAndSentWhenItAppears() throws Exception {
    client = new RecordingAdsClient(server.port()).openSotw();
    server.publish(resources.with("a", List.of(1001)));
    client.send(DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("n1")).setTypeUrl(EDS)
        .addAllResourceNames(List.of("a", "ghost")).build());

    DiscoveryResponse first = client.next();
    assertThat(first.getResourcesCount()).isEqualTo(1);
    assertThat(names(first.getResourceErrorsList())).containsExactly("ghost");
    ResourceError ghost = first.getResourceErrors(0);
    assertThat(ghost.getErrorDetail().getCode()).isEqualTo(ResourceErrors.NOT_FOUND);
    assertThat(ghost.getErrorDetail().getMessage()).isEqualTo("Signalbox serves no ENDPOINT named 'ghost'");
    client.send(RecordingAdsClient.ack(first, List.of("a", "ghost")));

    server.publish(resources.with("a", List.of(1001, 1002)));
    DiscoveryResponse second = client.next();
    assertThat(second.getResourcesCount()).isEqualTo(1);
    assertThat(second.getResourceErrorsList()).as("reported once while it stands").isEmpty();
    client.send(RecordingAdsClient.ack(second, List.of("a", "ghost")));

    server.publish(resources.with("a", List.of(1001, 1002), "ghost", List.of(3001)));
    DiscoveryResponse third = client.next();
    assertThat(third.getResourcesList()).singleElement()
        .satisfies(r -> assertThat(r.unpack(ClusterLoadAssignment.class).getClusterName()).isEqualTo("ghost"));
    assertThat(third.getResourceErrorsList()).isEmpty();
  }

  @Test
  void aDeltaNameNoEpochHasIsNotFoundAndAResourceHeldBackAfterANackIsUnavailable() throws Exception {
    client = new RecordingAdsClient(server.port()).openDelta();
    server.publish(resources.with("a", List.of(1001)));
    client.send(DeltaDiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("n1")).setTypeUrl(EDS)
        .addResourceNamesSubscribe("ghost").build());

    DeltaDiscoveryResponse missing = client.next();
    assertThat(missing.getResourcesList()).isEmpty();
    assertThat(names(missing.getResourceErrorsList())).containsExactly("ghost");
    assertThat(missing.getResourceErrors(0).getErrorDetail().getCode()).isEqualTo(ResourceErrors.NOT_FOUND);

    // Subscribing to "a" with the ACK: "a" is sent, and "ghost" is not reported again.
    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).setResponseNonce(missing.getNonce())
        .addResourceNamesSubscribe("a").build());
    DeltaDiscoveryResponse a = client.next();
    assertThat(a.getResourcesList()).extracting(r -> r.getName()).containsExactly("a");
    assertThat(a.getResourceErrorsList()).isEmpty();

    // The client refuses "a": it holds nothing of it, so "a" is held back, and says so.
    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).setResponseNonce(a.getNonce())
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage("a is bad")).build());
    DeltaDiscoveryResponse heldBack = client.next();
    assertThat(heldBack.getResourcesList()).isEmpty();
    assertThat(names(heldBack.getResourceErrorsList())).containsExactly("a");
    assertThat(heldBack.getResourceErrors(0).getErrorDetail().getCode()).isEqualTo(ResourceErrors.UNAVAILABLE);
    assertThat(heldBack.getResourceErrors(0).getErrorDetail().getMessage())
        .startsWith("ENDPOINT 'a' version ").contains("held back from this client").contains("NACK: a is bad");
  }
}
