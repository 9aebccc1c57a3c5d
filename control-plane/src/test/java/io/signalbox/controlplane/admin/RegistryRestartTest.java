package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registrations live in PostgreSQL (the embedded server on the data dir) and survive a restart. */
class RegistryRestartTest {

  @TempDir Path dir;

  @Test
  void registrationsSurviveARestartWithTheirExpiryTimes() {
    String expiresAt;
    try (RegistryServer first = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      assertThat(first.put("/api/v1/registry/orders/endpoints/10.0.0.1:8080", "{\"zone\": \"b\", \"weight\": 4,"
          + " \"metadata\": {\"v\": \"2\"}}").statusCode()).isEqualTo(201);
      expiresAt = json(first.get("/api/v1/registry")).get(0).get("expiresAt").asText();
      await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(first.stateOf("orders", "10.0.0.1:8080")));
    }

    try (RegistryServer second = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      JsonNode lease = json(second.get("/api/v1/registry")).get(0);
      assertThat(lease.get("expiresAt").asText()).isEqualTo(expiresAt);
      assertThat(lease.get("metadata").get("v").asText()).isEqualTo("2");
      await().atMost(Duration.ofSeconds(10)).until(() -> second.stateOf("orders", "10.0.0.1:8080") != null);
      JsonNode served = second.endpoints("orders").get(0);
      assertThat(served.get("state").asText()).isEqualTo("READY");
      assertThat(served.get("zone").asText()).isEqualTo("b");
      assertThat(served.get("weight").asInt()).isEqualTo(4);
      assertThat(second.put("/api/v1/registry/orders/endpoints/10.0.0.1:8080", "{\"zone\": \"b\", \"weight\": 4,"
          + " \"metadata\": {\"v\": \"2\"}}").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aRegistrationsCapacitySurvivesARestartApartFromItsMetadata() {
    // The key the capacity was once kept under, among the metadata, is the registrant's own again.
    String body = "{\"capacity\": {\"rps\": 250}, \"metadata\": {\"v\": \"2\", \"signalbox.io/capacity-rps\": \"7\"}}";
    try (RegistryServer first = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      assertThat(first.put(ORDERS_1, body).statusCode()).isEqualTo(201);
      assertThat(json(first.get("/api/v1/registry")).get(0).get("capacity").get("rps").asInt()).isEqualTo(250);
      awaitPublishedCapacity(first, 250);
    }

    try (RegistryServer second = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      JsonNode lease = json(second.get("/api/v1/registry")).get(0);
      assertThat(lease.get("capacity").get("rps").asInt()).isEqualTo(250);
      assertThat(lease.get("metadata").properties()).hasSize(2);
      assertThat(lease.get("metadata").get("v").asText()).isEqualTo("2");
      assertThat(lease.get("metadata").get("signalbox.io/capacity-rps").asText()).isEqualTo("7");
      assertThat(second.put(ORDERS_1, body).statusCode()).isEqualTo(200);

      assertThat(second.put(ORDERS_1, "{\"capacity\": {\"rps\": 400}}").statusCode()).isEqualTo(200);
      assertThat(json(second.get("/api/v1/registry")).get(0).get("capacity").get("rps").asInt()).isEqualTo(400);
      awaitPublishedCapacity(second, 400);

      // A renewal replaces the content: one declaring no capacity leaves the lease without one.
      assertThat(second.put(ORDERS_1, "{\"metadata\": {\"signalbox.io/capacity-rps\": \"9\"}}").statusCode())
          .isEqualTo(200);
      assertThat(json(second.get("/api/v1/registry")).get(0).path("capacity").isNull()).isTrue();
      awaitPublishedCapacity(second, null);
    }
  }

  private static final String ORDERS_1 = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";

  @Test
  void aRegistrationsHostnameHashKeyAndAdditionalAddressesSurviveARestartAndAreServed() {
    String body = "{\"hostname\": \"web-0.orders.local\", \"hashKey\": \"web-0\","
        + " \"additionalAddresses\": [\"fd00::1\"]}";
    try (RegistryServer first = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      assertThat(first.put(ORDERS_1, body).statusCode()).isEqualTo(201);
      awaitPublished(first, "web-0.orders.local", "web-0", "fd00::1");
    }

    try (RegistryServer second = RegistryServer.start(dir, "{ leaseTtl: 1h }", "", "embedded")) {
      JsonNode lease = json(second.get("/api/v1/registry")).get(0);
      assertThat(lease.get("hostname").asText()).isEqualTo("web-0.orders.local");
      assertThat(lease.get("hashKey").asText()).isEqualTo("web-0");
      assertThat(lease.get("additionalAddresses").toString()).isEqualTo("[\"fd00::1\"]");
      assertThat(second.put(ORDERS_1, body).statusCode()).isEqualTo(200);

      // Another registration on the first one's IPv6 address: refused by the rule, nothing written.
      HttpResponse<String> clash = second.put("/api/v1/registry/orders/endpoints/%5Bfd00::1%5D:8080", null);
      assertThat(clash.statusCode()).isEqualTo(409);
      assertThat(json(clash).get("code").asText()).isEqualTo("duplicate_endpoint");
      assertThat(json(clash).get("message").asText()).isEqualTo(
          "orders/[fd00::1]:8080: duplicate endpoint [fd00::1]:8080 (also orders/10.0.0.1:8080)");
      assertThat(json(second.get("/api/v1/registry"))).hasSize(1);

      // A renewal replaces the content: one declaring none leaves the lease without them.
      assertThat(second.put(ORDERS_1, "{}").statusCode()).isEqualTo(200);
      awaitPublished(second, "", "", null);
    }
  }

  /** Waits for the newest stored epoch to carry them (null: no additional address) for orders/10.0.0.1:8080. */
  private static void awaitPublished(RegistryServer server, String hostname, String hashKey, String additional) {
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.store().latest()
        .flatMap(epoch -> epoch.getEndpointsList().stream()
            .filter(e -> e.getCluster().equals("orders") && e.getAddress().equals("10.0.0.1") && e.getPort() == 8080)
            .findFirst())
        .map(e -> e.getHostname().equals(hostname) && e.getHashKey().equals(hashKey)
            && e.getAdditionalAddressesList().equals(additional == null ? java.util.List.of() : java.util.List.of(additional)))
        .orElse(false));
  }

  /** Waits for the newest stored epoch to carry that capacity (null: none) for orders/10.0.0.1:8080. */
  private static void awaitPublishedCapacity(RegistryServer server, Integer rps) {
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.store().latest()
        .flatMap(epoch -> epoch.getEndpointsList().stream()
            .filter(e -> e.getCluster().equals("orders") && e.getAddress().equals("10.0.0.1") && e.getPort() == 8080)
            .findFirst())
        .map(e -> Objects.equals(e.hasCapacityRps() ? e.getCapacityRps() : null, rps))
        .orElse(false));
  }

  @Test
  void leasesThatExpiredWhileSignalboxWasDownAreDroppedOnStart() {
    Instant expiresAt;
    try (RegistryServer first = RegistryServer.start(dir, "{ leaseTtl: 1s }", "", "embedded")) {
      HttpResponse<String> registered = first.put("/api/v1/registry/orders/endpoints/10.0.0.1:8080", null);
      assertThat(registered.statusCode()).isEqualTo(201);
      expiresAt = Instant.parse(json(registered).get("expiresAt").asText());
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(expiresAt));
    try (RegistryServer second = RegistryServer.start(dir, "{ leaseTtl: 1s }", "", "embedded")) {
      assertThat(json(second.get("/api/v1/registry"))).isEmpty();
    }
  }
}
