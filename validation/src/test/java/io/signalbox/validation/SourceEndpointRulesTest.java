package io.signalbox.validation;

import static io.signalbox.validation.States.FILE;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A source's own check is the validator's endpoint rules, minus those of the merged cluster. */
class SourceEndpointRulesTest {

  private static EndpointSpec at(String address, int port, int weight, int priority) {
    return new EndpointSpec(address, port, "a", weight, priority, EndpointState.READY, FILE);
  }

  @Test
  void reportsEveryProblemOfEachEndpointAndEveryDuplicateAtOnce() {
    List<EndpointSpec> endpoints = List.of(at("10.0.0.1", 8080, 1, 0), at("10.0.0.1", 8080, 5, 0),
        at("10.0.0.2", 70000, 0, 0));

    assertThat(SourceEndpointRules.check("greeter", endpoints)).extracting(Violation::toString).containsExactly(
        "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[1] (10.0.0.1:8080): duplicate endpoint "
            + "10.0.0.1:8080 (also at [0]) [duplicate.endpoint]",
        "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.2:70000): port: must be <= 65535, "
            + "was 70000 [range]",
        "file:/etc/endpoints.yaml: endpoints of cluster 'greeter'[2] (10.0.0.2:70000): weight: must be >= 1, was 0 [range]");
  }

  @Test
  void leavesTheMergedClustersRulesToTheValidator() {
    // Priority 1 alone is a gap only if no other source brings priority 0; no endpoint is eligible
    // enough for minEligible, which is a warning of the merged cluster.
    Map<String, List<EndpointSpec>> state = Map.of("greeter", List.of(at("10.0.0.1", 8080, 1, 1)));

    assertThat(SourceEndpointRules.check(state)).isEmpty();
  }

  @Test
  void checksTheNamesOfTheClustersASourceDiscovers() {
    assertThat(SourceEndpointRules.check(Map.of("", List.of(at("10.0.0.1", 8080, 1, 0)))))
        .extracting(Violation::rule).containsExactly("required");
  }
}
