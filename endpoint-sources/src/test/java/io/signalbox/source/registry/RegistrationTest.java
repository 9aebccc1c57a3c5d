package io.signalbox.source.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.CapacitySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules a bound registration must meet; JSON shape and types are the admin API reader's (StrictBodiesTest). */
class RegistrationTest {

  static Registration.Body body(String zone, Integer weight, Map<String, String> metadata) {
    return new Registration.Body(zone, weight, metadata, null);
  }

  @Test
  void readsACapacityWithTheWordsOfEndpointFiles() {
    assertThat(Registration.parse("orders", "10.0.0.1:8080",
        new Registration.Body(null, null, null, new CapacitySpec(100))))
        .isEqualTo(new Registration.Ok(new Registration("orders", "10.0.0.1", 8080, "", 1, Map.of(), 100)));
    assertThat(Registration.parse("orders", "10.0.0.1:8080",
        new Registration.Body(null, null, null, new CapacitySpec(0))))
        .isEqualTo(new Registration.Invalid("capacity.rps", "bad_capacity",
            "capacity.rps must be an integer from 1 to 1000000, was 0"));
    assertThat(Registration.parse("orders", "10.0.0.1:8080",
        new Registration.Body(null, null, null, new CapacitySpec(null))))
        .isEqualTo(new Registration.Invalid("capacity.rps", "bad_capacity",
            "capacity.rps is required: an integer from 1 to 1000000"));
  }

  @Test
  void aMetadataKeyNamedLikeTheCapacityIsOrdinaryMetadataAndDeclaresNone() {
    assertThat(Registration.parse("orders", "10.0.0.1:8080",
        body(null, null, Map.of("signalbox.io/capacity-rps", "5"))))
        .isEqualTo(new Registration.Ok(new Registration("orders", "10.0.0.1", 8080, "", 1,
            Map.of("signalbox.io/capacity-rps", "5"), null)));
  }

  @Test
  void anEmptyBodyTakesTheDefaults() {
    assertThat(Registration.parse("orders", "10.0.0.1:8080", null))
        .isEqualTo(new Registration.Ok(new Registration("orders", "10.0.0.1", 8080, "", 1, Map.of())));
  }

  @Test
  void readsEveryField() {
    assertThat(Registration.parse("ns/orders:grpc", "[fd00::1]:8443", body("eu-1b", 10000, Map.of("version", "1.4"))))
        .isEqualTo(new Registration.Ok(new Registration("ns/orders:grpc", "fd00::1", 8443, "eu-1b", 10000,
            Map.of("version", "1.4"))));
    assertThat(Registration.parse("orders", "orders-7.pods.local:1", body(null, null, null)))
        .isEqualTo(new Registration.Ok(new Registration("orders", "orders-7.pods.local", 1, "", 1, Map.of())));
  }

  static Map<String, String> entries(int n) {
    Map<String, String> out = new LinkedHashMap<>();
    IntStream.range(0, n).forEach(i -> out.put("k" + i, "v"));
    return out;
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("or ders", "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster may contain only letters, digits and . _ - / :, was 'or ders'"),
        Arguments.of("shop/../orders", "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster must not have a '.' or '..' segment, was 'shop/../orders'"),
        Arguments.of("shop//orders", "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster must not have an empty segment (a leading, trailing or doubled '/'), was 'shop//orders'"),
        Arguments.of("orders\t", "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster must not contain control characters, was 'orders\\u0009'"),
        Arguments.of("", "10.0.0.1:80", null, "cluster", "bad_cluster", "cluster must not be empty"),
        Arguments.of("c".repeat(256), "10.0.0.1:80", null, "cluster", "bad_cluster",
            "cluster must be at most 255 characters, was 256"),
        Arguments.of("orders", "10.0.0.1", null, "endpoint", "bad_endpoint",
            "expected address:port (IPv6 as [::1]:8080), was '10.0.0.1'"),
        Arguments.of("orders", "10.0.0.256:80", null, "address", "bad_address",
            "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was '10.0.0.256'"),
        Arguments.of("orders", "fd00::1:80", null, "address", "bad_address",
            "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was 'fd00::1'"),
        Arguments.of("orders", "10.0.0.1:0", null, "port", "bad_port", "port must be a number from 1 to 65535, was '0'"),
        Arguments.of("orders", "10.0.0.1:+80", null, "port", "bad_port",
            "port must be a number from 1 to 65535, was '+80'"),
        Arguments.of("orders", "10.0.0.1:80", body(null, 0, null), "weight", "bad_weight",
            "weight must be an integer from 1 to 10000, was 0"),
        Arguments.of("orders", "10.0.0.1:80", body(null, 10001, null), "weight", "bad_weight",
            "weight must be an integer from 1 to 10000, was 10001"),
        Arguments.of("orders", "10.0.0.1:80", body("z".repeat(64), null, null), "zone", "bad_zone",
            "zone must be at most 63 characters, was 64"),
        Arguments.of("orders", "10.0.0.1:80", body(null, null, entries(17)), "metadata", "bad_metadata",
            "metadata may have at most 16 entries, was 17"),
        Arguments.of("orders", "10.0.0.1:80", body(null, null, Map.of("", "x")), "metadata", "bad_metadata",
            "metadata keys must be 1 to 256 characters, was 0"),
        Arguments.of("orders", "10.0.0.1:80", body(null, null, Map.of("team", "t".repeat(257))), "metadata.team",
            "bad_metadata", "metadata.team must be at most 256 characters, was 257"));
  }

  @ParameterizedTest(name = "{3}: {5}")
  @MethodSource("invalid")
  void namesTheFirstWrongFieldAndItsRule(String cluster, String endpoint, Registration.Body body, String field,
      String code, String message) {
    assertThat(Registration.parse(cluster, endpoint, body)).isEqualTo(new Registration.Invalid(field, code, message));
  }
}
