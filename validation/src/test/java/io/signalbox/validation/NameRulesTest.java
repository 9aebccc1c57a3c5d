package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class NameRulesTest {

  @Test
  void acceptsKubernetesDerivedNames() {
    assertThat(rendered(valid(ClusterSpec.named("default/greeter:grpc-50051")))).isEmpty();
  }

  @Test
  void rejectsMissingBlankAndOddNames() {
    DesiredState state = new DesiredState(
        CONFIG,
        List.of(apiListener(null, "greeter"), apiListener(" ", "greeter"), apiListener("in gress", "greeter")),
        List.of(routeConfig("greeter", routeTo("greeter"))),
        List.of(ClusterSpec.named("greeter")),
        Map.of("greeter", List.of(endpoint("10.0.0.1", 8080))));

    assertThat(rendered(state))
        .containsExactly(
            "signalbox.yaml: listeners[0]: name: is required [required]",
            "signalbox.yaml: listeners[1]: name: must not be blank [required]",
            "signalbox.yaml: listener 'in gress': name: may contain only letters, digits and . _ - / :, was 'in gress' [name]");
  }

  @Test
  void rejectsDuplicateNamesPerKind() {
    DesiredState state = new DesiredState(
        CONFIG,
        List.of(apiListener("greeter", "greeter"), apiListener("greeter", "greeter")),
        List.of(routeConfig("greeter", routeTo("greeter")), routeConfig("greeter", routeTo("greeter"))),
        List.of(ClusterSpec.named("greeter"), ClusterSpec.named("greeter")),
        Map.of("greeter", List.of(endpoint("10.0.0.1", 8080))));

    assertThat(rendered(state))
        .containsExactly(
            "signalbox.yaml: listeners[1]: name: duplicate listener 'greeter' (also at listeners[0]) [duplicate.name]",
            "signalbox.yaml: routeConfigs[1]: name: duplicate route config 'greeter' (also at routeConfigs[0]) [duplicate.name]",
            "signalbox.yaml: clusters[1]: name: duplicate cluster 'greeter' (also at clusters[0]) [duplicate.name]");
  }

  @Test
  void allowsTheSameNameAcrossKinds() {
    assertThat(rendered(valid(ClusterSpec.named("greeter")))).isEmpty();
  }

  @Test
  void rejectsOddNameOfDiscoveredCluster() {
    DesiredState state = valid(ClusterSpec.named("greeter")).withEndpoints("bad name", List.of(endpoint("10.0.0.9", 80)));

    assertThat(rendered(state))
        .containsExactly(
            "file:/etc/endpoints.yaml: endpoints of cluster 'bad name': may contain only letters, digits and . _ - / :, was 'bad name' [name]");
  }

  @Test
  void refusesEmptyAndDotSegmentsAndControlCharactersInDiscoveredClusterNames() {
    DesiredState state = valid(ClusterSpec.named("greeter"))
        .withEndpoints("ns//svc", List.of(endpoint("10.0.0.9", 80)))
        .withEndpoints("ns/../svc", List.of(endpoint("10.0.0.9", 80)))
        .withEndpoints("ns/svc\u0007", List.of(endpoint("10.0.0.9", 80)));

    assertThat(rendered(state))
        .containsExactlyInAnyOrder(
            "file:/etc/endpoints.yaml: endpoints of cluster 'ns//svc': must not have an empty segment (a leading, "
                + "trailing or doubled '/'), was 'ns//svc' [name]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'ns/../svc': must not have a '.' or '..' segment, was "
                + "'ns/../svc' [name]",
            "file:/etc/endpoints.yaml: endpoints of cluster 'ns/svc\u0007': must not contain control characters, was "
                + "'ns/svc\\u0007' [name]");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "default/greeter:grpc-50051|",
      "a.b..c|",
      "...|",
      "/greeter|must not have an empty segment (a leading, trailing or doubled '/'), was '/greeter'",
      "greeter/|must not have an empty segment (a leading, trailing or doubled '/'), was 'greeter/'",
      "a//b|must not have an empty segment (a leading, trailing or doubled '/'), was 'a//b'",
      "..|must not have a '.' or '..' segment, was '..'",
      "a/./b|must not have a '.' or '..' segment, was 'a/./b'",
      "a/..|must not have a '.' or '..' segment, was 'a/..'",
      "gr eeter|may contain only letters, digits and . _ - / :, was 'gr eeter'",
      "grüße|may contain only letters, digits and . _ - / :, was 'grüße'"})
  void namesTheFirstProblemOfAName(String name, String problem) {
    assertThat(NameRules.nameProblem(name)).isEqualTo(Optional.ofNullable(problem));
  }

  @Test
  void escapesControlCharactersInTheMessage() {
    assertThat(NameRules.nameProblem("a\nb\u001b[31m"))
        .contains("must not contain control characters, was 'a\\u000ab\\u001b[31m'");
  }

  static Stream<Arguments> endpoints() {
    String address = "address must be an IPv4 address, an IPv6 address in brackets or a DNS name, was ";
    return Stream.of(
        Arguments.of("10.0.0.1:8080", new NameRules.Endpoint("10.0.0.1", 8080)),
        Arguments.of("[fd00::1]:8443", new NameRules.Endpoint("fd00::1", 8443)),
        Arguments.of("orders-7.pods.local:1", new NameRules.Endpoint("orders-7.pods.local", 1)),
        Arguments.of("10.0.0.1", new NameRules.Refused("endpoint",
            "expected address:port (IPv6 as [::1]:8080), was '10.0.0.1'")),
        Arguments.of(null, new NameRules.Refused("endpoint", "expected address:port (IPv6 as [::1]:8080), was null")),
        Arguments.of("a..b:80", new NameRules.Refused("address", address + "'a..b'")),
        Arguments.of("..:80", new NameRules.Refused("address", address + "'..'")),
        Arguments.of("a\u0000b:80", new NameRules.Refused("address", address + "'a\\u0000b'")),
        Arguments.of("[10.0.0.1]:80", new NameRules.Refused("address", address + "'[10.0.0.1]'")),
        Arguments.of("fd00::1:80", new NameRules.Refused("address", address + "'fd00::1'")),
        Arguments.of("10.0.0.1:+80", new NameRules.Refused("port", "port must be a number from 1 to 65535, was '+80'")),
        Arguments.of("10.0.0.1:0", new NameRules.Refused("port", "port must be a number from 1 to 65535, was '0'")),
        Arguments.of("10.0.0.1:65536", new NameRules.Refused("port",
            "port must be a number from 1 to 65535, was '65536'")),
        Arguments.of("10.0.0.1:080", new NameRules.Refused("port", "port must be a number from 1 to 65535, was '080'")),
        Arguments.of("10.0.0.1:00080", new NameRules.Refused("port",
            "port must be a number from 1 to 65535, was '00080'")));
  }

  static Stream<Arguments> labels() {
    String space = "must not start or end with a space, was ";
    return Stream.of(
        Arguments.of("", null),
        Arguments.of("eu-west-1a", null),
        Arguments.of("zürich 1", null),
        Arguments.of(" a", space + "' a'"),
        Arguments.of("a ", space + "'a '"),
        Arguments.of("a\u00a0", space + "'a\u00a0'"),
        Arguments.of("a\nb", "must not contain control characters, was 'a\\u000ab'"),
        Arguments.of("a\u0085", "must not contain control characters, was 'a\\u0085'"),
        Arguments.of("a\u200bb", "must not contain invisible formatting characters, was 'a\\u200bb'"),
        Arguments.of("\u202eab", "must not contain invisible formatting characters, was '\\u202eab'"));
  }

  @ParameterizedTest
  @MethodSource("labels")
  void aLabelIsVisibleTextWithoutSurroundingSpaces(String label, String problem) {
    assertThat(NameRules.labelProblem(label)).isEqualTo(Optional.ofNullable(problem));
  }

  @Test
  void freeTextMayHaveSpacesButNoControlCharacters() {
    assertThat(NameRules.textProblem(" team a ")).isEmpty();
    assertThat(NameRules.textProblem("v\r\nX-Forged: 1"))
        .contains("must not contain control characters, was 'v\\u000d\\u000aX-Forged: 1'");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("endpoints")
  void readsAnEndpointKeyStrictly(String raw, NameRules.EndpointKey expected) {
    assertThat(NameRules.endpoint(raw)).isEqualTo(expected);
  }
}
