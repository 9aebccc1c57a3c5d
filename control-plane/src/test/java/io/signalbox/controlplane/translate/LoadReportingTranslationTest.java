package io.signalbox.controlplane.translate;

import static io.signalbox.controlplane.translate.Translations.clusters;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SelfConfigSource;
import io.signalbox.model.ClusterSpec;
import org.junit.jupiter.api.Test;

class LoadReportingTranslationTest {

  private final XdsTranslator translator = new XdsTranslator();

  private static ClusterSpec reporting(String name, Boolean loadReporting) {
    return ClusterSpec.named(name).with(new ClusterSpec.Telemetry(loadReporting, null));
  }

  private Cluster translateOne(ClusterSpec spec) {
    return Translations.cluster(translator.translate(clusters(spec)), spec.name());
  }

  @Test
  void aReportingClusterNamesThisServerAsItsLrsServer() {
    assertThat(translateOne(reporting("greeter", true)).getLrsServer())
        .isEqualTo(ConfigSource.newBuilder().setSelf(SelfConfigSource.getDefaultInstance()).build());
  }

  @Test
  void aClusterThatDoesNotOptInHasNoLrsServer() {
    assertThat(translateOne(reporting("greeter", false)).hasLrsServer()).isFalse();
    assertThat(translateOne(reporting("greeter", null)).hasLrsServer()).isFalse();
    assertThat(translateOne(ClusterSpec.named("greeter")).hasLrsServer()).isFalse();
  }

  @Test
  void theDefaultTurnsReportingOnUnlessTheClusterTurnsItOff() {
    ClusterSpec defaults = reporting(null, true);

    assertThat(translateOne(ClusterSpec.named("a").withDefaults(defaults)).hasLrsServer()).isTrue();
    assertThat(translateOne(reporting("b", false).withDefaults(defaults)).hasLrsServer()).isFalse();
  }

  @Test
  void reportingChangesNothingElseInTheCluster() {
    Cluster plain = translateOne(ClusterSpec.named("greeter"));
    assertThat(translateOne(reporting("greeter", true)).toBuilder().clearLrsServer().build()).isEqualTo(plain);
  }
}
