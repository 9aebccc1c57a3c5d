package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.model.ClusterSpec;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadReportingConfigTest {

  private static SignalboxConfig ok(String yaml) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(yaml, "signalbox.yaml", Path.of("/etc/signalbox"));
    assertThat(parsed.violations()).isEmpty();
    return ((Parsed.Ok<SignalboxConfig>) parsed).value();
  }

  @Test
  void bindsLoadReportingOnAClusterAndUnderClusterDefaults() {
    SignalboxConfig config = ok("""
        clusterDefaults: { loadReporting: true }
        clusters:
          - name: inherits
          - name: optsOut
            loadReporting: false
        """);

    List<ClusterSpec> clusters = config.desiredState(Map.of()).clusters();
    assertThat(clusters).extracting(ClusterSpec::name, ClusterSpec::reportsLoad)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("inherits", true),
            org.assertj.core.groups.Tuple.tuple("optsOut", false));
  }

  @Test
  void reportingIsOffWhenNothingSaysSo() {
    SignalboxConfig config = ok("""
        clusters:
          - name: plain
        """);

    assertThat(config.desiredState(Map.of()).clusters().get(0).reportsLoad()).isFalse();
  }

  @Test
  void refusesAValueThatIsNotABoolean() {
    assertThat(ConfigLoader.parse("""
        clusters:
          - name: a
            loadReporting: sometimes
        """, "signalbox.yaml", Path.of("/etc/signalbox")).violations()).extracting(Object::toString)
        .containsExactly("signalbox.yaml: line 3, column 20: clusters[0].loadReporting: expected true or false, "
            + "was 'sometimes' [parse]");
  }
}
