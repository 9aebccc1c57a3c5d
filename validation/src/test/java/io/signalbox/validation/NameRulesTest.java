package io.signalbox.validation;

import static io.signalbox.validation.States.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
