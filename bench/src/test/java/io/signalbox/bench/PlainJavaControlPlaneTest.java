package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The baselines' versions: what makes the careful one careful and the plain one plain. */
class PlainJavaControlPlaneTest {

  private static final Workload WORKLOAD = new Workload(10, 3);

  private static Translation translation(int appliedChanges) {
    Parsed<SignalboxConfig> parsed =
        ConfigLoader.parse(WORKLOAD.config(18000, 8080, "memory", "100ms"), "bench.yaml", Path.of("."));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    return new XdsTranslator().translate(config.desiredState(WORKLOAD.endpointSpecs(appliedChanges)), Translation.empty());
  }

  private static Map<Resources.ResourceType, String> versions(Snapshot snapshot) {
    return Stream.of(Resources.ResourceType.CLUSTER, Resources.ResourceType.ENDPOINT, Resources.ResourceType.LISTENER,
            Resources.ResourceType.ROUTE)
        .collect(Collectors.toMap(type -> type, snapshot::version));
  }

  @Test
  void carefulVersionsChangeOnlyForTheTypeAnEndpointEditChanges() {
    Map<Resources.ResourceType, String> before =
        versions(PlainJavaControlPlane.snapshot(translation(0), PlainJavaControlPlane.Versions.PER_TYPE_HASH, 1));
    Map<Resources.ResourceType, String> after =
        versions(PlainJavaControlPlane.snapshot(translation(1), PlainJavaControlPlane.Versions.PER_TYPE_HASH, 2));

    assertThat(after.get(Resources.ResourceType.ENDPOINT)).isNotEqualTo(before.get(Resources.ResourceType.ENDPOINT));
    assertThat(after).containsEntry(Resources.ResourceType.CLUSTER, before.get(Resources.ResourceType.CLUSTER))
        .containsEntry(Resources.ResourceType.LISTENER, before.get(Resources.ResourceType.LISTENER))
        .containsEntry(Resources.ResourceType.ROUTE, before.get(Resources.ResourceType.ROUTE));
  }

  @Test
  void carefulVersionsAreTheSameForTheSameContentBuiltAgain() {
    assertThat(versions(PlainJavaControlPlane.snapshot(translation(3), PlainJavaControlPlane.Versions.PER_TYPE_HASH, 1)))
        .isEqualTo(versions(PlainJavaControlPlane.snapshot(translation(3), PlainJavaControlPlane.Versions.PER_TYPE_HASH, 9)));
  }

  @Test
  void plainVersionsChangeForEveryTypeOnEveryChange() {
    Map<Resources.ResourceType, String> before =
        versions(PlainJavaControlPlane.snapshot(translation(0), PlainJavaControlPlane.Versions.SNAPSHOT, 1));
    Map<Resources.ResourceType, String> after =
        versions(PlainJavaControlPlane.snapshot(translation(1), PlainJavaControlPlane.Versions.SNAPSHOT, 2));

    assertThat(before).containsOnlyKeys(after.keySet()).allSatisfy((type, version) -> assertThat(version).isEqualTo("1"));
    assertThat(after).allSatisfy((type, version) -> assertThat(version).isEqualTo("2"));
  }
}
