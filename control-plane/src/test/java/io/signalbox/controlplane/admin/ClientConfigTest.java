package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/clients/{id}/config} with real ADS clients, state of the world and delta: what
 * each was sent and ACKed, the NACK it sent, the resources of the epoch it holds with their
 * versions, and what the current epoch changes for it.
 */
class ClientConfigTest {

  static final String CDS = XdsType.CLUSTER.typeUrl();
  static final String EDS = XdsType.ENDPOINT.typeUrl();
  static final List<String> TYPE_FIELDS = List.of("type", "sentVersion", "sentEpoch", "ackedVersion", "ackedEpoch",
      "nack", "refusing", "resources", "unavailable", "diff", "wildcard", "subscribed");

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private XdsResource resource(long epoch, XdsType type, String name) {
    return sb.server.store().load(epoch).map(Snapshot::fromEnvelope).orElseThrow().resources(type).get(name);
  }

  private long epoch() {
    return sb.server.reconciler().status().epoch();
  }

  @Test
  void aSotwClientShowsWhatItHoldsItsNackAndTheEndpointThatTheCurrentEpochAdds() throws Exception {
    long held = epoch();
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "cfg-sotw", "web")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> {
        JsonNode types = json(sb.get("/api/v1/clients/cfg-sotw/config")).path("types");
        return types.path(CDS).path("ackedEpoch").asLong() == held && types.path(EDS).path("ackedEpoch").asLong() == held;
      });
      client.rejectWith = "no second endpoint for you";
      long next = sb.publishNewEpoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients/cfg-sotw/config"))
          .path("types").path(EDS).path("nack").isObject());

      JsonNode config = json(sb.get("/api/v1/clients/cfg-sotw/config"));

      assertThat(config.fieldNames()).toIterable().containsExactly("nodeId", "nodeCluster", "userAgent", "replicaId",
          "streamId", "delta", "currentEpoch", "types", "streams");
      assertThat(config.get("nodeId").asText()).isEqualTo("cfg-sotw");
      assertThat(config.get("nodeCluster").asText()).isEqualTo("web");
      assertThat(config.get("delta").asBoolean()).isFalse();
      assertThat(config.get("currentEpoch").asLong()).isEqualTo(next);
      assertThat(config.get("types").fieldNames()).toIterable().containsExactly(CDS, EDS);

      JsonNode eds = config.get("types").get(EDS);
      assertThat(eds.fieldNames()).toIterable().containsExactlyElementsOf(TYPE_FIELDS);
      assertThat(eds.get("type").asText()).isEqualTo("EDS");
      assertThat(eds.get("ackedEpoch").asLong()).isEqualTo(held);
      assertThat(eds.get("ackedVersion").asText()).isEqualTo(client.accepted(EDS));
      assertThat(eds.get("sentEpoch").asLong()).isEqualTo(next);
      assertThat(eds.get("nack").get("epoch").asLong()).isEqualTo(next);
      assertThat(eds.get("nack").get("message").asText()).isEqualTo("no second endpoint for you");
      assertThat(eds.get("nack").get("standing").asBoolean()).isTrue();
      XdsResource greeter = resource(held, XdsType.ENDPOINT, "greeter");
      assertThat(eds.get("resources").size()).isEqualTo(1);
      JsonNode r = eds.get("resources").get(0);
      assertThat(r.get("name").asText()).isEqualTo("greeter");
      assertThat(r.get("version").asText()).isEqualTo(greeter.version());
      assertThat(r.get("epoch").asLong()).isEqualTo(greeter.changedEpoch());
      assertThat(eds.get("unavailable").isNull()).isTrue();
      JsonNode diff = eds.get("diff");
      assertThat(diff.get("toEpoch").asLong()).isEqualTo(next);
      assertThat(diff.get("upToDate").asBoolean()).isFalse();
      assertThat(diff.get("added").size()).isZero();
      assertThat(diff.get("removed").size()).isZero();
      JsonNode changed = diff.get("changed").get(0);
      assertThat(changed.get("name").asText()).isEqualTo("greeter");
      assertThat(changed.get("heldVersion").asText()).isEqualTo(greeter.version());
      assertThat(changed.get("currentVersion").asText())
          .isEqualTo(resource(next, XdsType.ENDPOINT, "greeter").version());
      assertThat(changed.get("fields").get(0).asText()).isEqualTo("127.0.0.1:50002 added (READY, weight 1)");
      assertThat(changed.get("fields").size()).isEqualTo(1);

      JsonNode cds = config.get("types").get(CDS);
      assertThat(cds.get("type").asText()).isEqualTo("CDS");
      assertThat(cds.get("nack").isNull()).isTrue();
      assertThat(cds.get("resources").findValuesAsText("name")).containsExactly("greeter");
      assertThat(cds.get("diff").get("upToDate").asBoolean()).isTrue();
    }
  }

  @Test
  void aDeltaClientShowsWhatItHoldsAndItsNack() throws Exception {
    Node node = Node.newBuilder().setId("cfg-delta").setCluster("batch").build();
    try (RecordingAdsClient client = new RecordingAdsClient(sb.server.xdsPort()).openDelta()) {
      client.send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(CDS).build());
      ack(client, client.next());
      client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).addResourceNamesSubscribe("greeter").build());
      ack(client, client.next());
      long held = epoch();
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients/cfg-delta/config?type=EDS"))
          .path("types").path(EDS).path("ackedEpoch").asLong() == held);

      long next = sb.publishNewEpoch();
      DeltaDiscoveryResponse update = client.next();
      assertThat(update.getTypeUrl()).isEqualTo(EDS);
      client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS).setResponseNonce(update.getNonce())
          .setErrorDetail(Status.newBuilder().setCode(3).setMessage("delta says no")).build());
      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients/cfg-delta/config?type=EDS"))
          .path("types").path(EDS).path("nack").isObject());

      JsonNode config = json(sb.get("/api/v1/clients/cfg-delta/config?type=EDS"));

      assertThat(config.get("delta").asBoolean()).isTrue();
      assertThat(config.get("nodeCluster").asText()).isEqualTo("batch");
      assertThat(config.get("types").fieldNames()).toIterable().containsExactly(EDS);
      JsonNode eds = config.get("types").get(EDS);
      assertThat(eds.fieldNames()).toIterable().containsExactlyElementsOf(TYPE_FIELDS);
      assertThat(eds.get("ackedEpoch").asLong()).isEqualTo(held);
      assertThat(eds.get("nack").get("epoch").asLong()).isEqualTo(next);
      assertThat(eds.get("nack").get("message").asText()).isEqualTo("delta says no");
      assertThat(eds.get("resources").get(0).get("version").asText())
          .isEqualTo(resource(held, XdsType.ENDPOINT, "greeter").version());
      assertThat(eds.get("diff").get("changed").get(0).get("fields").get(0).asText())
          .isEqualTo("127.0.0.1:50002 added (READY, weight 1)");
    }
  }

  private static void ack(RecordingAdsClient client, DeltaDiscoveryResponse response) {
    client.send(DeltaDiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl())
        .setResponseNonce(response.getNonce()).build());
  }

  @Test
  void anUnknownClientOrTypeIsAJsonError() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "cfg-known", "web")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> sb.get("/api/v1/clients/cfg-known/config").statusCode() == 200);

      JsonNode unknown = json(sb.get("/api/v1/clients/cfg-knwn/config"));
      assertThat(unknown.get("code").asText()).isEqualTo("unknown_client");
      assertThat(unknown.get("message").asText()).isEqualTo("no connected client 'cfg-knwn'; did you mean 'cfg-known'?");
      assertThat(sb.get("/api/v1/clients/cfg-knwn/config").statusCode()).isEqualTo(404);
      JsonNode badType = json(sb.get("/api/v1/clients/cfg-known/config?type=XDS"));
      assertThat(badType.get("code").asText()).isEqualTo("bad_type");
      assertThat(badType.get("message").asText())
          .isEqualTo("type must be one of CDS, EDS, LDS, RDS or a type URL, was 'XDS'");
    }
  }

  /**
   * grpc-go opens one ADS stream per xDS target under one node id: each is tracked on its own, and
   * the config lists every one with the names it subscribed to, as its requests said.
   */
  @Test
  void everyStreamOfANodeIsListedWithTheNamesItSubscribedTo() throws Exception {
    try (RecordingAdsClient one = new RecordingAdsClient(sb.server.xdsPort()).openDelta();
        RecordingAdsClient two = new RecordingAdsClient(sb.server.xdsPort()).openDelta()) {
      one.send(DeltaDiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("cfg-multi")).setTypeUrl(EDS)
          .addResourceNamesSubscribe("greeter").build());
      two.send(DeltaDiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("cfg-multi")).setTypeUrl(CDS)
          .addResourceNamesSubscribe("*").build());
      ack(one, one.next());
      ack(two, two.next());

      await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/clients/cfg-multi/config"))
          .path("streams").size() == 2);
      JsonNode streams = json(sb.get("/api/v1/clients/cfg-multi/config")).get("streams");

      assertThat(streams.get(0).get("streamId").asLong()).isNotEqualTo(streams.get(1).get("streamId").asLong());
      assertThat(streams).extracting(s -> s.get("types").toString()).containsExactlyInAnyOrder(
          "{\"EDS\":{\"wildcard\":false,\"names\":[\"greeter\"]}}",
          "{\"CDS\":{\"wildcard\":true,\"names\":[]}}");
      assertThat(streams).allSatisfy(s -> assertThat(s.get("replicaId").asText()).isNotEmpty());
    }
  }
}
