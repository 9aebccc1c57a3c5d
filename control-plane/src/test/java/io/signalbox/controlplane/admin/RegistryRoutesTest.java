package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Register, renew, expire and deregister over real HTTP against a whole Signalbox. */
class RegistryRoutesTest {

  static final String ORDERS_1 = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";
  static final String ORDERS_2 = "/api/v1/registry/orders/endpoints/10.0.0.2:8080";

  @TempDir Path dir;
  RegistryServer sb;

  @AfterEach
  void stop() {
    if (sb != null) {
      sb.close();
    }
  }

  private long epoch() {
    return sb.server.reconciler().status().epoch();
  }

  /**
   * The epoch after a build that began after this call: that build saw every input offered so far
   * (a registration publishes before its response), so what it served is all they lead to.
   */
  private long builtEpoch() {
    long begun = sb.server.reconciler().buildsStarted();
    sb.server.reconciler().poke("test: build what was offered");
    await().atMost(Duration.ofSeconds(30)).until(() -> sb.server.reconciler().buildsFinished() > begun);
    return epoch();
  }

  @Test
  void registersAnUndeclaredClustersEndpointAsReadyWithItsZoneWeightAndOrigin() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    Instant before = Instant.now();

    HttpResponse<String> response = sb.put(ORDERS_1, "{\"zone\": \"b\", \"weight\": 7, \"metadata\": {\"v\": \"1.4\"}}");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    JsonNode body = json(response);
    assertThat(body.get("cluster").asText()).isEqualTo("orders");
    assertThat(body.get("endpoint").asText()).isEqualTo("10.0.0.1:8080");
    assertThat(Instant.parse(body.get("expiresAt").asText())).isAfterOrEqualTo(before.plus(Duration.ofHours(1)));
    assertThat(body.size()).isEqualTo(3);
    await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(sb.stateOf("orders", "10.0.0.1:8080")));
    JsonNode served = sb.endpoints("orders").get(0);
    assertThat(served.get("zone").asText()).isEqualTo("b");
    assertThat(served.get("weight").asInt()).isEqualTo(7);
    assertThat(served.get("origin").asText()).isEqualTo("registry:orders/10.0.0.1:8080");

    JsonNode lease = json(sb.get("/api/v1/registry")).get(0);
    assertThat(lease.get("metadata").get("v").asText()).isEqualTo("1.4");
    assertThat(lease.get("expiresAt").asText()).isEqualTo(body.get("expiresAt").asText());
  }

  @Test
  void anEmptyBodyRegistersWithTheDefaultsAndAnIpv6AddressInBrackets() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");

    HttpResponse<String> response = sb.put("/api/v1/registry/orders/endpoints/%5Bfd00::1%5D:8080", null);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(json(response).get("endpoint").asText()).isEqualTo("[fd00::1]:8080");
    await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(sb.stateOf("orders", "[fd00::1]:8080")));
    JsonNode served = sb.endpoints("orders").get(0);
    assertThat(served.get("zone").asText()).isEmpty();
    assertThat(served.get("weight").asInt()).isEqualTo(1);
  }

  @Test
  void theRegistryNearMissesThatAreValidAreAccepted() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");

    // An empty zone is no zone, as in an endpoint file; 63 characters is the longest zone.
    assertThat(sb.put("/api/v1/registry/orders/endpoints/10.0.0.1:8080", "{\"zone\": \"\"}").statusCode()).isEqualTo(201);
    assertThat(sb.put("/api/v1/registry/orders/endpoints/10.0.0.2:8080", "{\"zone\": \"" + "z".repeat(63) + "\"}")
        .statusCode()).isEqualTo(201);
    // A zone may be any visible text; an IPv4-mapped IPv6 address is an IPv6 address.
    assertThat(sb.put("/api/v1/registry/orders/endpoints/%5B::ffff:10.0.0.3%5D:8080", "{\"zone\": \"zürich 1\"}")
        .statusCode()).isEqualTo(201);

    await().atMost(Duration.ofSeconds(10)).until(() -> sb.endpoints("orders").size() == 3);
    assertThat(json(sb.get("/api/v1/registry"))).extracting(l -> l.get("zone").asText())
        .containsExactlyInAnyOrder("", "z".repeat(63), "zürich 1");
  }

  @Test
  void aSlashInAClusterNameIsSentAsPercent2F() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");

    HttpResponse<String> response = sb.put("/api/v1/registry/shop%2Forders:grpc/endpoints/10.0.0.1:8080", null);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(json(response).get("cluster").asText()).isEqualTo("shop/orders:grpc");
    assertThat(json(sb.get("/api/v1/registry")).get(0).get("origin").asText())
        .isEqualTo("registry:shop/orders:grpc/10.0.0.1:8080");
    assertThat(sb.delete("/api/v1/registry/shop%2Forders:grpc/endpoints/10.0.0.1:8080").statusCode()).isEqualTo(200);
  }

  @Test
  void renewingWithTheSameContentIs200AndCreatesNoEpochOrAuditEntry() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    HttpResponse<String> first = sb.put(ORDERS_1, "{\"zone\": \"b\"}");
    await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(sb.stateOf("orders", "10.0.0.1:8080")));
    long epoch = builtEpoch();

    HttpResponse<String> renewal = sb.put(ORDERS_1, "{\"zone\": \"b\"}");

    assertThat(renewal.statusCode()).as(renewal.body()).isEqualTo(200);
    assertThat(Instant.parse(json(renewal).get("expiresAt").asText()))
        .isAfterOrEqualTo(Instant.parse(json(first).get("expiresAt").asText()));
    assertThat(builtEpoch()).isEqualTo(epoch);
    // One operator action (the registration) plus the endpoint's own transition it caused; the
    // renewal adds neither.
    JsonNode audit = json(sb.get("/api/v1/audit"));
    assertThat(audit).extracting(a -> a.get("action").asText()).containsExactly("transition", "register");
    assertThat(audit.get(1).get("target").asText()).isEqualTo("orders/10.0.0.1:8080");
    assertThat(audit.get(1).get("actor").asText()).isEqualTo("anonymous");
    assertThat(audit.get(0).get("reason").asText()).startsWith("new -> READY in epoch " + epoch);
  }

  @Test
  void renewingWithOtherContentChangesTheServedEndpoint() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    sb.put(ORDERS_1, "{\"weight\": 2}");
    await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(sb.stateOf("orders", "10.0.0.1:8080")));

    assertThat(sb.put(ORDERS_1, "{\"weight\": 9}").statusCode()).isEqualTo(200);

    await().atMost(Duration.ofSeconds(10))
        .until(() -> sb.endpoints("orders").get(0).get("weight").asInt() == 9);
  }

  @Test
  void aDeregisteredEndpointDrainsFirstThenDisappears() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    sb.put(ORDERS_1, null);
    sb.put(ORDERS_2, null);
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.endpoints("orders").size() == 2);

    HttpResponse<String> response = sb.delete(ORDERS_1);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(json(response).toString())
        .isEqualTo("{\"cluster\":\"orders\",\"endpoint\":\"10.0.0.1:8080\",\"deregistered\":true}");
    assertThat(json(sb.get("/api/v1/registry"))).extracting(l -> l.get("endpoint").asText())
        .containsExactly("10.0.0.2:8080");
    await().atMost(Duration.ofSeconds(10)).until(() -> "DRAINING".equals(sb.stateOf("orders", "10.0.0.1:8080")));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.stateOf("orders", "10.0.0.1:8080") == null);
    assertThat(sb.stateOf("orders", "10.0.0.2:8080")).isEqualTo("READY");

    JsonNode again = json(sb.delete(ORDERS_1));
    assertThat(again.get("code").asText()).isEqualTo("unknown_registration");
    assertThat(again.get("message").asText()).isEqualTo("cluster 'orders' has no registration of 10.0.0.1:8080");
  }

  @Test
  void anExpiredLeaseDrainsTheEndpointThenRemovesIt() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1s }");
    sb.put(ORDERS_1, null);
    sb.put(ORDERS_2, null);
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.endpoints("orders").size() == 2);
    // Keep renewing .2 only; .1's lease runs out.
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
      sb.put(ORDERS_2, null);
      return "DRAINING".equals(sb.stateOf("orders", "10.0.0.1:8080"));
    });
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
      sb.put(ORDERS_2, null);
      return sb.stateOf("orders", "10.0.0.1:8080") == null;
    });
    assertThat(sb.stateOf("orders", "10.0.0.2:8080")).isEqualTo("READY");
    assertThat(json(sb.get("/api/v1/registry"))).extracting(l -> l.get("endpoint").asText())
        .containsExactly("10.0.0.2:8080");
  }

  @Test
  void aRegistrationMayJoinAClusterAnEndpointFileFeeds() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");

    assertThat(sb.put("/api/v1/registry/greeter/endpoints/127.0.0.1:60000", null).statusCode()).isEqualTo(201);

    await().atMost(Duration.ofSeconds(10)).until(() -> sb.endpoints("greeter").size() == 2);
    assertThat(sb.stateOf("greeter", "127.0.0.1:60000")).isEqualTo("READY");
    assertThat(sb.stateOf("greeter", "127.0.0.1:50001")).isEqualTo("READY");
  }

  @Test
  void aDisabledRegistryAnswers404() {
    sb = RegistryServer.start(dir, "{ enabled: false }");

    JsonNode body = json(sb.put(ORDERS_1, null));

    assertThat(body.get("code").asText()).isEqualTo("registry_disabled");
    assertThat(body.get("message").asText()).isEqualTo("the REST registry is disabled (sources.registry.enabled: false)");
    assertThat(sb.delete(ORDERS_1).statusCode()).isEqualTo(404);
    assertThat(sb.get("/api/v1/registry").statusCode()).isEqualTo(404);
  }

  @Test
  void anAdditionalAddressThatAnotherSourceServesIsTheValidatorsDuplicateOnTheMergedCluster() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    long before = builtEpoch();

    // The endpoint file serves greeter 127.0.0.1:50001; the registry knows only its own leases.
    HttpResponse<String> response = sb.put("/api/v1/registry/greeter/endpoints/127.0.0.2:50001",
        "{\"additionalAddresses\": [\"127.0.0.1\"]}");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(builtEpoch()).isEqualTo(before);
    await().atMost(Duration.ofSeconds(10)).until(() -> json(sb.get("/api/v1/rejections")).toString()
        .contains("duplicate endpoint 127.0.0.1:50001"));
    assertThat(json(sb.get("/api/v1/rejections")).get(0).get("violations").toString()).contains(
        "endpoints of cluster 'greeter'[1] (127.0.0.2:50001): duplicate endpoint 127.0.0.1:50001 (an additional"
            + " address) (also at [0]) [duplicate.endpoint]");
  }
}
