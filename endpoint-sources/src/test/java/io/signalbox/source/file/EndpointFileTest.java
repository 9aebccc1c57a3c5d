package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointFileTest {

  @Test
  void readsTheDesignExample() {
    Parsed<Map<String, List<EndpointSpec>>> parsed =
        EndpointFile.parse(
            """
            clusters:
              greeter:
                - { address: 127.0.0.1, port: 50051, zone: a, weight: 1, state: READY }
                - { address: 127.0.0.1, port: 50052, zone: b, weight: 1, state: DRAINING }
            """,
            "/etc/endpoints.yaml");

    assertThat(parsed)
        .isEqualTo(
            Parsed.ok(
                Map.of(
                    "greeter",
                    List.of(
                        new EndpointSpec("127.0.0.1", 50051, "a", 1, 0, EndpointState.READY, "file:/etc/endpoints.yaml"),
                        new EndpointSpec("127.0.0.1", 50052, "b", 1, 0, EndpointState.DRAINING, "file:/etc/endpoints.yaml")))));
  }

  @Test
  void appliesDefaultsForWeightPriorityStateAndZone() {
    Parsed<Map<String, List<EndpointSpec>>> parsed =
        EndpointFile.parse("clusters:\n  web:\n    - { address: 10.0.0.1, port: 80 }\n", "e.yaml");

    assertThat(parsed)
        .isEqualTo(
            Parsed.ok(Map.of("web", List.of(new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "file:e.yaml")))));
  }

  @Test
  void readsAnEndpointsCapacityInYamlAndJsonAndKeepsAnEmptyOneForTheValidator() {
    List<EndpointSpec> expected = List.of(
        new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "file:e.yaml", 100),
        new EndpointSpec("10.0.0.2", 80, "", 1, 0, EndpointState.READY, "file:e.yaml", null),
        new EndpointSpec("10.0.0.3", 80, "", 1, 0, EndpointState.READY, "file:e.yaml", 0));

    assertThat(EndpointFile.parse("""
            clusters:
              web:
                - { address: 10.0.0.1, port: 80, capacity: { rps: 100 } }
                - { address: 10.0.0.2, port: 80 }
                - { address: 10.0.0.3, port: 80, capacity: {} }
            """, "e.yaml")).isEqualTo(Parsed.ok(Map.of("web", expected)));
    assertThat(EndpointFile.parse("{\"clusters\": {\"web\": [{\"address\": \"10.0.0.1\", \"port\": 80, "
        + "\"capacity\": {\"rps\": 100}}, {\"address\": \"10.0.0.2\", \"port\": 80}, "
        + "{\"address\": \"10.0.0.3\", \"port\": 80, \"capacity\": {}}]}}", "e.yaml"))
        .isEqualTo(Parsed.ok(Map.of("web", expected)));
  }

  @Test
  void readsAnEmptyFileAndAnEmptyClusterAsNoEndpoints() {
    assertThat(EndpointFile.parse("", "e.yaml")).isEqualTo(Parsed.ok(Map.of()));
    assertThat(EndpointFile.parse("clusters:\n  web:\n", "e.yaml")).isEqualTo(Parsed.ok(Map.of("web", List.of())));
  }

  @Test
  void reportsUnknownKeysAndBadValuesWithLineNumbers() {
    Parsed<Map<String, List<EndpointSpec>>> parsed =
        EndpointFile.parse(
            """
            clusters:
              web:
                - { address: 10.0.0.1, prot: 80 }
                - { address: 10.0.0.2, port: eighty, state: GONE }
            extra: 1
            """,
            "e.yaml");

    assertThat(parsed.violations().stream().map(Violation::toString))
        .containsExactly(
            "e.yaml: line 3, column 28: clusters.web[0].prot: unknown key 'prot' (did you mean 'port'?) [parse]",
            "e.yaml: line 4, column 34: clusters.web[1].port: expected an integer, was 'eighty' [parse]",
            "e.yaml: line 4, column 49: clusters.web[1].state: expected one of WARMING, READY, DEGRADED, DRAINING, EJECTED, was 'GONE' [parse]",
            "e.yaml: line 5, column 1: extra: unknown key 'extra' (expected one of clusters) [parse]");
  }

  @Test
  void readsAnEndpointsHashKey() {
    assertThat(EndpointFile.parse("clusters:\n  web:\n    - { address: 10.0.0.1, port: 80, hashKey: web-0 }\n", "e.yaml"))
        .isEqualTo(Parsed.ok(Map.of("web", List.of(
            new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "file:e.yaml").withHashKey("web-0")))));
  }

  @Test
  void readsAnEndpointsHostname() {
    assertThat(EndpointFile.parse("clusters:\n  web:\n    - { address: 10.0.0.1, port: 80, hostname: web-0.example }\n",
        "e.yaml")).isEqualTo(Parsed.ok(Map.of("web", List.of(
            new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY, "file:e.yaml").withHostname("web-0.example")))));
  }

  @Test
  void readsAnEndpointsAdditionalAddresses() {
    assertThat(EndpointFile.parse(
        "clusters:\n  web:\n    - { address: 10.0.0.1, port: 80, additionalAddresses: [ 'fd00::1' ] }\n", "e.yaml"))
        .isEqualTo(Parsed.ok(Map.of("web", List.of(new EndpointSpec("10.0.0.1", 80, "", 1, 0, EndpointState.READY,
            "file:e.yaml").withAdditionalAddresses(List.of("fd00::1"))))));
  }
}
