package io.signalbox.source.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class RegistrationTest {

  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String body) {
    try {
      return body == null ? null : JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException(body, e);
    }
  }

  @Test
  void anEmptyBodyTakesTheDefaults() {
    assertThat(Registration.parse("orders", "10.0.0.1:8080", null))
        .isEqualTo(new Registration.Ok(new Registration("orders", "10.0.0.1", 8080, "", 1, Map.of())));
  }

  @Test
  void readsEveryField() {
    assertThat(Registration.parse("ns/orders:grpc", "[fd00::1]:8443",
        json("{\"zone\": \"eu-1b\", \"weight\": 10000, \"metadata\": {\"version\": \"1.4\"}}")))
        .isEqualTo(new Registration.Ok(new Registration("ns/orders:grpc", "fd00::1", 8443, "eu-1b", 10000,
            Map.of("version", "1.4"))));
    assertThat(Registration.parse("orders", "orders-7.pods.local:1", json("{\"zone\": null}")))
        .isEqualTo(new Registration.Ok(new Registration("orders", "orders-7.pods.local", 1, "", 1, Map.of())));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("or ders", "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster may contain only letters, digits and . _ - / :, was 'or ders'"),
        Arguments.of("orders", "10.0.0.1", null, "endpoint", "bad_endpoint",
            "expected address:port (IPv6 as [::1]:8080), was '10.0.0.1'"),
        Arguments.of("orders", "10.0.0.256:80", null, "address", "bad_address",
            "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was '10.0.0.256'"),
        Arguments.of("orders", "fd00::1:80", null, "address", "bad_address",
            "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was 'fd00::1'"),
        Arguments.of("orders", "10.0.0.1:0", null, "port", "bad_port", "port must be a number from 1 to 65535, was '0'"),
        Arguments.of("orders", "10.0.0.1:+80", null, "port", "bad_port",
            "port must be a number from 1 to 65535, was '+80'"),
        Arguments.of("orders", "10.0.0.1:80", "[]", "body", "bad_json", "the request body must be a JSON object, was an array"),
        Arguments.of("orders", "10.0.0.1:80", "{\"colour\": 1}", "colour", "unknown_field",
            "unknown field 'colour' in the request body; known fields: [zone, weight, metadata]"),
        Arguments.of("orders", "10.0.0.1:80", "{\"weight\": 2.5}", "weight", "bad_weight",
            "weight must be an integer from 1 to 10000, was 2.5"),
        Arguments.of("orders", "10.0.0.1:80", "{\"weight\": 4294967297}", "weight", "bad_weight",
            "weight must be an integer from 1 to 10000, was 4294967297"),
        Arguments.of("orders", "10.0.0.1:80", "{\"zone\": 7}", "zone", "bad_zone", "zone must be a string, was the number 7"),
        Arguments.of("orders", "10.0.0.1:80", "{\"metadata\": {\"\": \"x\"}}", "metadata", "bad_metadata",
            "metadata keys must be 1 to 256 characters, was 0"),
        Arguments.of("orders", "10.0.0.1:80", "{\"metadata\": {\"team\": null}}", "metadata.team", "bad_metadata",
            "metadata.team must be a string, was null"));
  }

  @ParameterizedTest(name = "{3}: {5}")
  @MethodSource("invalid")
  void namesTheFirstWrongFieldAndItsRule(String cluster, String endpoint, String body, String field, String code,
      String message) {
    assertThat(Registration.parse(cluster, endpoint, json(body)))
        .isEqualTo(new Registration.Invalid(field, code, message));
  }
}
