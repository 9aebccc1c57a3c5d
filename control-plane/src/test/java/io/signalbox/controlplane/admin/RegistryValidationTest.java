package io.signalbox.controlplane.admin;

import static io.signalbox.controlplane.admin.RunningSignalbox.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad registry requests over real HTTP: each is refused with its status, code and exact message,
 * and leaves the registry, the served endpoints and the epoch exactly as they were.
 */
class RegistryValidationTest {

  static final String PATH = "/api/v1/registry/orders/endpoints/10.0.0.1:8080";

  @TempDir static Path dir;
  static RegistryServer sb;
  static String registry;
  static String served;

  @BeforeAll
  static void start() {
    sb = RegistryServer.start(dir, "{ leaseTtl: 1h }");
    assertThat(sb.put(PATH, "{\"zone\": \"a\", \"weight\": 3}").statusCode()).isEqualTo(201);
    await().atMost(Duration.ofSeconds(10)).until(() -> "READY".equals(sb.stateOf("orders", "10.0.0.1:8080")));
    registry = sb.get("/api/v1/registry").body();
    served = sb.endpoints("orders").toString();
  }

  @AfterAll
  static void stop() {
    sb.close();
  }

  static String repeat(char c, int n) {
    return String.valueOf(c).repeat(n);
  }

  static String entries(int n) {
    return IntStream.range(0, n).mapToObj(i -> "\"k" + i + "\": \"v\"").collect(Collectors.joining(", ", "{", "}"));
  }

  static Arguments put(String path, String body, int status, String code, String message) {
    return Arguments.of("PUT", path, body, status, code, message);
  }

  static Arguments delete(String path, int status, String code, String message) {
    return Arguments.of("DELETE", path, null, status, code, message);
  }

  static final String ADDRESS = "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was ";
  static final String WEIGHT = "weight must be an integer from 1 to 10000, was ";

  static Stream<Arguments> badRequests() {
    String base = "/api/v1/registry/orders/endpoints/";
    return Stream.of(
        put("/api/v1/registry/or%20ders/endpoints/10.0.0.1:8080", null, 400, "bad_cluster",
            "cluster may contain only letters, digits and . _ - / :, was 'or ders'"),
        put("/api/v1/registry/orders!/endpoints/10.0.0.1:8080", null, 400, "bad_cluster",
            "cluster may contain only letters, digits and . _ - / :, was 'orders!'"),
        put("/api/v1/registry/" + repeat('c', 256) + "/endpoints/10.0.0.1:8080", null, 400, "bad_cluster",
            "cluster must be at most 255 characters, was 256"),
        put(base + "10.0.0.1", null, 400, "bad_endpoint", "expected address:port (IPv6 as [::1]:8080), was '10.0.0.1'"),
        put(base + ":8080", null, 400, "bad_endpoint", "expected address:port (IPv6 as [::1]:8080), was ':8080'"),
        put(base + "10.0.0.256:8080", null, 400, "bad_address", ADDRESS + "'10.0.0.256'"),
        put(base + "010.0.0.1:8080", null, 400, "bad_address", ADDRESS + "'010.0.0.1'"),
        put(base + "fd00::1:8080", null, 400, "bad_address", ADDRESS + "'fd00::1'"),
        put(base + "%5Bnot-v6%5D:8080", null, 400, "bad_address", ADDRESS + "'[not-v6]'"),
        put(base + "under_score.local:8080", null, 400, "bad_address", ADDRESS + "'under_score.local'"),
        put(base + "10.0.0.1:0", null, 400, "bad_port", "port must be a number from 1 to 65535, was '0'"),
        put(base + "10.0.0.1:65536", null, 400, "bad_port", "port must be a number from 1 to 65535, was '65536'"),
        put(base + "10.0.0.1:http", null, 400, "bad_port", "port must be a number from 1 to 65535, was 'http'"),
        put(base + "10.0.0.1:", null, 400, "bad_port", "port must be a number from 1 to 65535, was ''"),
        put(PATH, "{\"weight\": 0}", 400, "bad_weight", WEIGHT + "0"),
        put(PATH, "{\"weight\": 10001}", 400, "bad_weight", WEIGHT + "10001"),
        put(PATH, "{\"weight\": \"5\"}", 400, "bad_weight", WEIGHT + "the string \"5\""),
        put(PATH, "{\"weight\": 2.5}", 400, "bad_weight", WEIGHT + "the number 2.5"),
        put(PATH, "{\"capacity\": {\"rps\": 0}}", 400, "bad_capacity",
            "capacity.rps must be an integer from 1 to 1000000, was 0"),
        put(PATH, "{\"capacity\": {\"rps\": 1000001}}", 400, "bad_capacity",
            "capacity.rps must be an integer from 1 to 1000000, was 1000001"),
        put(PATH, "{\"capacity\": {}}", 400, "bad_capacity", "capacity.rps is required: an integer from 1 to 1000000"),
        put(PATH, "{\"capacity\": {\"rps\": \"5\"}}", 400, "bad_capacity",
            "capacity.rps must be an integer, was the string \"5\""),
        put(PATH, "{\"capacity\": 5}", 400, "bad_capacity",
            "capacity must be an object {\"rps\": N}, N an integer from 1 to 1000000, was the number 5"),
        put(PATH, "{\"zone\": 7}", 400, "bad_zone", "zone must be a string, was the number 7"),
        put(PATH, "{\"zone\": \"" + repeat('z', 64) + "\"}", 400, "bad_zone",
            "zone must be at most 63 characters, was 64"),
        put(PATH, "{\"metadata\": [\"a\"]}", 400, "bad_metadata",
            "metadata must be an object of string values, was an array"),
        put(PATH, "{\"metadata\": " + entries(17) + "}", 400, "bad_metadata",
            "metadata may have at most 16 entries, was 17"),
        put(PATH, "{\"metadata\": {\"k\": 1}}", 400, "bad_metadata", "metadata.k must be a string, was the number 1"),
        put(PATH, "{\"metadata\": {\"k\": \"" + repeat('v', 257) + "\"}}", 400, "bad_metadata",
            "metadata.k must be at most 256 characters, was 257"),
        put(PATH, "{\"metadata\": {\"" + repeat('k', 257) + "\": \"v\"}}", 400, "bad_metadata",
            "metadata keys must be 1 to 256 characters, was 257"),
        put(PATH, "{\"zone\": \"b\", \"colour\": \"red\"}", 400, "unknown_field",
            "unknown field 'colour' in the request body; known fields: [zone, weight, metadata, capacity, hostname,"
            + " hashKey, additionalAddresses]"),
        put(PATH, "[1, 2]", 400, "bad_json", "the request body must be a JSON object, was an array"),
        put(PATH, "zone=b", 400, "bad_json", "the request body is not valid: Unrecognized token 'zone': was"
            + " expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') (line 1, column 1)"),
        put(PATH, "{\"zone\": \"" + repeat('z', 70_000) + "\"}", 413, "payload_too_large",
            "request bodies are limited to 65536 bytes"),
        delete("/api/v1/registry/orders/endpoints/10.0.0.9:8080", 404, "unknown_registration",
            "cluster 'orders' has no registration of 10.0.0.9:8080"),
        delete("/api/v1/registry/greeter/endpoints/10.0.0.1:8080", 404, "unknown_registration",
            "cluster 'greeter' has no registration of 10.0.0.1:8080"),
        delete(base + "10.0.0.1:99999", 400, "bad_port", "port must be a number from 1 to 65535, was '99999'"),
        // Near misses (issue 29): each refused with its own rule, before anything is written.
        put(PATH, "{\"zone\": \"a\\nb\"}", 400, "bad_zone", "zone must not contain control characters, was 'a\\u000ab'"),
        put(PATH, "{\"zone\": \"a\\u0000\"}", 400, "bad_zone",
            "zone must not contain control characters, was 'a\\u0000'"),
        put(PATH, "{\"zone\": \"\\u001b[31ma\"}", 400, "bad_zone",
            "zone must not contain control characters, was '\\u001b[31ma'"),
        put(PATH, "{\"zone\": \"a\\u0085\"}", 400, "bad_zone",
            "zone must not contain control characters, was 'a\\u0085'"),
        put(PATH, "{\"zone\": \"a\\u200b\"}", 400, "bad_zone",
            "zone must not contain invisible formatting characters, was 'a\\u200b'"),
        put(PATH, "{\"zone\": \" a\"}", 400, "bad_zone", "zone must not start or end with a space, was ' a'"),
        put(PATH, "{\"zone\": \"a\\t\"}", 400, "bad_zone", "zone must not contain control characters, was 'a\\u0009'"),
        put(PATH, "{\"zone\": \"a \"}", 400, "bad_zone", "zone must not start or end with a space, was 'a '"),
        put(PATH, "{\"zone\": \" \"}", 400, "bad_zone", "zone must not start or end with a space, was ' '"),
        put(PATH, "{\"metadata\": {\"k\\n\": \"v\"}}", 400, "bad_metadata",
            "a metadata key must not contain control characters, was 'k\\u000a'"),
        put(PATH, "{\"metadata\": {\" k\": \"v\"}}", 400, "bad_metadata",
            "a metadata key must not start or end with a space, was ' k'"),
        put(PATH, "{\"metadata\": {\"k\": \"v\\r\\nX-Forged: 1\"}}", 400, "bad_metadata",
            "metadata.k must not contain control characters, was 'v\\u000d\\u000aX-Forged: 1'"),
        put(PATH + "/", "{\"zone\": \"a\", \"weight\": 3}", 400, "trailing_slash", "PUT " + PATH
            + "/ ends with '/'; the route is PUT /api/v1/registry/{cluster}/endpoints/{endpoint}, without it"),
        delete(PATH + "/", 400, "trailing_slash", "DELETE " + PATH
            + "/ ends with '/'; the route is DELETE /api/v1/registry/{cluster}/endpoints/{endpoint}, without it"),
        put(base + "10.0.0.1:080", null, 400, "bad_port", "port must be a number from 1 to 65535, was '080'"),
        put(base + "10.0.0.1:08080", null, 400, "bad_port", "port must be a number from 1 to 65535, was '08080'"),
        put(base + "10.0.0.1:-80", null, 400, "bad_port", "port must be a number from 1 to 65535, was '-80'"),
        put(base + "10.0.0.1:+80", null, 400, "bad_port", "port must be a number from 1 to 65535, was '+80'"),
        put(base + "10.0.0.1:%2080", null, 400, "bad_port", "port must be a number from 1 to 65535, was ' 80'"),
        put(base + "%2010.0.0.1:8080", null, 400, "bad_address", ADDRESS + "' 10.0.0.1'"),
        put(base + "10.0.0.1%20:8080", null, 400, "bad_address", ADDRESS + "'10.0.0.1 '"),
        put(base + "::1:8080", null, 400, "bad_address", ADDRESS + "'::1'"),
        put(base + "10.0.0.1:8080%2F", null, 400, "bad_port", "port must be a number from 1 to 65535, was '8080/'"),
        put(PATH, "{\"weight\": -0}", 400, "bad_weight", WEIGHT + "0"),
        // Issue 44's fields, by the rules endpoint files meet (validation's EndpointRules).
        put(PATH, "{\"hostname\": \"web_0.local\"}", 400, "bad_hostname",
            "hostname must be a DNS name, was 'web_0.local'"),
        put(PATH, "{\"hostname\": 7}", 400, "bad_hostname", "hostname must be a DNS name, was the number 7"),
        put(PATH, "{\"hashKey\": \"" + repeat('k', 257) + "\"}", 400, "bad_hashKey",
            "hashKey must be at most 256 characters, was 257"),
        put(PATH, "{\"hashKey\": \"a\\u0000\"}", 400, "bad_hashKey", "hashKey must not contain control characters"),
        put(PATH, "{\"additionalAddresses\": [\"web-0.local\"]}", 400, "bad_additionalAddresses",
            "additionalAddresses must be IPv4 or IPv6 addresses, was 'web-0.local'"),
        put(PATH, "{\"additionalAddresses\": [\"[fd00::1]\"]}", 400, "bad_additionalAddresses",
            "additionalAddresses must be IPv4 or IPv6 addresses, was '[fd00::1]'"),
        put(PATH, "{\"additionalAddresses\": \"fd00::1\"}", 400, "bad_additionalAddresses",
            "additionalAddresses must be an array of IPv4 or IPv6 addresses, was the string \"fd00::1\""),
        put(PATH, "{\"additionalAddresses\": [null]}", 400, "bad_additionalAddresses",
            "additionalAddresses[0] must be a string, was null"),
        // The other registration of the cluster answers on 10.0.0.1: one endpoint per address.
        put(base + "%5Bfd00::9%5D:8080", "{\"additionalAddresses\": [\"10.0.0.1\"]}", 409, "duplicate_endpoint",
            "orders/[fd00::9]:8080: duplicate endpoint 10.0.0.1:8080 (an additional address) (also orders/10.0.0.1:8080)"),
        put(PATH, "{\"additionalAddresses\": [\"10.0.0.1\"]}", 409, "duplicate_endpoint",
            "orders/10.0.0.1:8080: duplicate endpoint 10.0.0.1:8080 (an additional address) (also orders/10.0.0.1:8080)"));
  }

  @ParameterizedTest(name = "{0} {1} {2} -> {3} {4}")
  @MethodSource("badRequests")
  void isRefusedWithItsRuleAndChangesNothing(String method, String path, String body, int status, String code,
      String message) {
    long epoch = sb.server.reconciler().status().epoch();

    HttpResponse<String> response = method.equals("PUT") ? sb.put(path, body) : sb.delete(path);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = json(response);
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("message").asText()).isEqualTo(message);
    assertThat(sb.get("/api/v1/registry").body()).isEqualTo(registry);
    assertThat(sb.endpoints("orders").toString()).isEqualTo(served);
    assertThat(sb.server.reconciler().status().epoch()).isEqualTo(epoch);
  }
}
