package io.signalbox.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.source.kubernetes.ClusterNameTemplate;
import io.signalbox.source.kubernetes.KubernetesSourceSettings;
import io.signalbox.source.kubernetes.KubernetesSourceSettings.Connection;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class KubernetesSettingsTest {

  private static final Path BASE = Path.of("/etc/signalbox");

  private static Parsed<SignalboxConfig> parse(String yaml) {
    return ConfigLoader.parse(yaml, "signalbox.yaml", BASE);
  }

  @Test
  void resolvesTheKubeconfigAgainstTheConfigFileAndPassesEverythingToTheSource() {
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parse("""
        sources:
          kubernetes:
            enabled: true
            namespaces: [ shop, web ]
            labelSelector: "tier=front"
            clusterName: "{service}.{namespace}:{port}"
            kubeconfig: ./kube/config
            context: staging
        """)).value();

    KubernetesSourceSettings source = config.sources().kubernetes().toSourceSettings();
    assertThat(source.namespaces()).containsExactly("shop", "web");
    assertThat(source.labelSelector()).isEqualTo("tier=front");
    assertThat(source.clusterNames()).isEqualTo(new ClusterNameTemplate("{service}.{namespace}:{port}"));
    assertThat(source.connection()).isEqualTo(new Connection.Kubeconfig(Path.of("/etc/signalbox/kube/config"), "staging"));
  }

  @Test
  void defaultsToAutoConfigurationAndTheNamespacedClusterName() {
    KubernetesSourceSettings source = KubernetesSettings.defaults().toSourceSettings();

    assertThat(source.connection()).isEqualTo(new Connection.Auto());
    assertThat(source.clusterNames()).isEqualTo(ClusterNameTemplate.DEFAULT);
    assertThat(source.namespaces()).containsExactly("default");
  }

  @Test
  void prefersAnExplicitMasterUrl() {
    KubernetesSettings settings =
        new KubernetesSettings(true, List.of("*"), null, null, Path.of("/k"), null, "http://127.0.0.1:8001");

    assertThat(settings.toSourceSettings().connection()).isEqualTo(new Connection.MasterUrl("http://127.0.0.1:8001"));
  }

  @Test
  void reportsABadClusterNameWhereItIsWritten() {
    List<String> problems = parse("""
        sources:
          kubernetes: { enabled: true, clusterName: "{namespace}-{service}" }
        """).violations().stream().map(Violation::toString).toList();

    assertThat(problems).singleElement().asString()
        .contains("sources.kubernetes")
        .contains("clusterName: '{namespace}-{service}' must contain {port}");
  }
}
