package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drains, ejections, weights, rollback and freeze over real HTTP against a whole Signalbox. */
class OperatorRoutesTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @BeforeEach
  void start() {
    sb = RunningSignalbox.start(dir, "port: 0");
    sb.publishNewEpoch();
    sb.publishNewEpoch();
  }

  @AfterEach
  void stop() {
    sb.close();
  }

  private static void assertError(HttpResponse<String> response, int status, String code, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode body = json(response);
    assertThat(body.get("code").asText()).isEqualTo(code);
    assertThat(body.get("message").asText()).isEqualTo(message);
  }

  private HttpResponse<String> delete(String path) {
    return sb.send(HttpRequest.newBuilder(sb.uri(path)).DELETE());
  }

  private HttpResponse<String> put(String path, String body) {
    return sb.send(HttpRequest.newBuilder(sb.uri(path)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  private String stateOf(String endpoint) {
    for (JsonNode e : json(sb.get("/api/v1/clusters/greeter/endpoints"))) {
      if (e.get("endpoint").asText().equals(endpoint)) {
        return e.get("state").asText();
      }
    }
    return null;
  }

  @Test
  void namesTheClosestClusterAndEndpointWhenOneIsUnknown() {
    assertError(sb.post("/api/v1/clusters/gretter/endpoints/127.0.0.1:50001/drain", "", null), 404,
        "unknown_cluster", "no cluster 'gretter'; did you mean 'greeter'?");
    assertError(sb.post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50011/drain", "", null), 404,
        "unknown_endpoint", "cluster 'greeter' has no endpoint 127.0.0.1:50011; did you mean '127.0.0.1:50001'?");
    assertError(sb.post("/api/v1/clusters/greeter/endpoints/nonsense/drain", "", null), 400,
        "bad_endpoint", "expected address:port (IPv6 as [::1]:8080), was 'nonsense'");
  }

  @Test
  void aDrainIsFollowedToSafeToRemoveAndUndone() throws Exception {
    try (AnsweringAdsClient client = new AnsweringAdsClient(sb.server.xdsPort(), "c-1", "web")) {
      HttpResponse<String> drain = sb.post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50002/drain",
          "{\"reason\": \"kernel upgrade\", \"deadline\": \"1s\"}", null);
      assertThat(drain.statusCode()).as(drain.body()).isEqualTo(202);

      await().atMost(Duration.ofSeconds(10)).until(() -> "DRAINING".equals(stateOf("127.0.0.1:50002")));
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        JsonNode progress = json(sb.get("/api/v1/clusters/greeter/endpoints/127.0.0.1:50002/drain"));
        assertThat(progress.get("clientsTotal").asInt()).isEqualTo(1);
        assertThat(progress.get("clientsAcked").asInt()).isEqualTo(1);
        assertThat(progress.get("drainingEpoch").asLong()).isPositive();
        assertThat(progress.get("safeToRemove").asBoolean()).isTrue();
      });
      assertThat(json(sb.get("/api/v1/drains")).get(0).get("reason").asText()).isEqualTo("kernel upgrade");
      assertThat(json(sb.get("/api/v1/audit")).findValuesAsText("action")).contains("drain");

      assertThat(delete("/api/v1/clusters/greeter/endpoints/127.0.0.1:50002/drain").statusCode()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(stateOf("127.0.0.1:50002")));
      assertError(delete("/api/v1/clusters/greeter/endpoints/127.0.0.1:50002/drain"), 404, "not_draining",
          "greeter/127.0.0.1:50002 is not being drained by an operator");
    }
  }

  @Test
  void refusesAnEjectionPastTheCapAndChangesNothing() {
    HttpResponse<String> first = sb.post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/eject", "", null);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(202);
    await().atMost(Duration.ofSeconds(10)).until(() -> "EJECTED".equals(stateOf("127.0.0.1:50001")));

    assertError(sb.post("/api/v1/clusters/greeter/endpoints/127.0.0.1:50002/eject", "", null), 409, "ejection_cap",
        "ejecting 127.0.0.1:50002 would eject 2 of 3 endpoints of cluster 'greeter' (66%), "
            + "more than maxEjectionPercent 10");
    assertThat(stateOf("127.0.0.1:50002")).isEqualTo("READY");
  }

  @Test
  void overridesAWeightWithinRange() {
    assertThat(put("/api/v1/clusters/greeter/endpoints/127.0.0.1:50003/weight", "{\"weight\": 7}").statusCode())
        .isEqualTo(202);
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      for (JsonNode e : json(sb.get("/api/v1/clusters/greeter/endpoints"))) {
        if (e.get("port").asInt() == 50003) {
          return e.get("weight").asInt() == 7;
        }
      }
      return false;
    });
    assertError(put("/api/v1/clusters/greeter/endpoints/127.0.0.1:50003/weight", "{\"weight\": 0}"), 400,
        "bad_weight", "weight must be an integer from 1 to 10000, was 0");
  }

  @Test
  void aFrozenServerPublishesNothingUntilUnfrozen() {
    long before = sb.server.reconciler().status().epoch();
    assertThat(sb.post("/api/v1/freeze", "{\"reason\": \"incident 42\"}", null).statusCode()).isEqualTo(200);
    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(5));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().status().pendingPublish());
    assertThat(json(sb.get("/api/v1/status")).get("frozen").asBoolean()).isTrue();
    assertThat(sb.server.reconciler().status().epoch()).isEqualTo(before);

    assertThat(sb.post("/api/v1/unfreeze", "", null).statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().status().epoch() > before);
  }

  @Test
  void rollsBackToANamedEpochAndRefusesAnUnknownOne() {
    assertError(sb.post("/api/v1/rollback", "{\"to\": 999}", null), 404, "unknown_epoch", "no epoch 999");
    HttpResponse<String> ok = sb.post("/api/v1/rollback", "{\"to\": 1, \"reason\": \"bad deploy\"}", null);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(202);
    assertThat(json(ok).get("to").asLong()).isEqualTo(1);
  }

  @Test
  void anEndpointIsReWeightedByItsAdditionalAddressAndListedWithIt() {
    long before = sb.server.reconciler().status().epoch();
    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(3)
        .replace("port: 50002, zone: a }", "port: 50002, zone: a, additionalAddresses: [ 'fd00::2' ] }"));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().status().epoch() > before);

    HttpResponse<String> weighed = put("/api/v1/clusters/greeter/endpoints/%5Bfd00::2%5D:50002/weight",
        "{\"weight\": 7}");

    assertThat(weighed.statusCode()).as(weighed.body()).isEqualTo(202);
    assertThat(json(weighed).get("endpoint").asText()).isEqualTo("127.0.0.1:50002");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      JsonNode listed = null;
      for (JsonNode e : json(sb.get("/api/v1/clusters/greeter/endpoints"))) {
        listed = e.get("endpoint").asText().equals("127.0.0.1:50002") ? e : listed;
      }
      assertThat(listed).isNotNull();
      assertThat(listed.get("weight").asInt()).isEqualTo(7);
      assertThat(listed.get("additionalAddresses").toString()).isEqualTo("[\"fd00::2\"]");
      assertThat(listed.get("override").asText()).startsWith("weight 7 by ");
    });
    assertError(put("/api/v1/clusters/greeter/endpoints/%5Bfd00::3%5D:50002/weight", "{\"weight\": 7}"), 404,
        "unknown_endpoint", "cluster 'greeter' has no endpoint [fd00::3]:50002; did you mean '[fd00::2]:50002'?");
  }
}
