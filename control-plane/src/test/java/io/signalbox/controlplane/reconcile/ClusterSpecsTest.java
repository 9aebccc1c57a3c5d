package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Asking about one cluster between two epochs leaves the epoch's cluster list alone. */
class ClusterSpecsTest {

  private static final List<EndpointSpec> ONE =
      List.of(new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:e.yaml"));

  private final SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse("""
      clusterDefaults: { lbPolicy: LEAST_REQUEST }
      clusters:
        - { name: m, connectTimeout: 2s }
      """, "signalbox.yaml", Path.of("/"))).value();

  @Test
  void aOneClusterQuestionKeepsTheEpochsClusterListAndAnswersAsTheConfigDoes() {
    DesiredStateTemplate template = DesiredStateTemplate.of(config.desiredStates(), config::clusterFor);
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>(Map.of("b", ONE, "m", ONE));
    DesiredState first = template.with(endpoints);

    ClusterSpecs specs = new ClusterSpecs(template);
    ClusterSpec declared = specs.get("m");
    ClusterSpec discovered = specs.get("elsewhere");

    assertThat(template.with(endpoints).clusters()).isSameAs(first.clusters());
    assertThat(declared).isEqualTo(first.clusters().get(0));
    assertThat(discovered).isEqualTo(config.desiredState(Map.of("elsewhere", ONE)).clusters().get(1));
  }
}
