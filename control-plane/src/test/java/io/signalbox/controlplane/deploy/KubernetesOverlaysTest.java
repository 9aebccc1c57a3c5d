package io.signalbox.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.signalbox.controlplane.config.SignalboxConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What sets the two overlays apart: where the store lives, how many replicas, which image flavour. */
class KubernetesOverlaysTest {

  @TempDir Path dir;

  @Test
  void everyOverlayDirectoryIsOneTheTestsRender() throws IOException {
    try (Stream<Path> dirs = Files.list(RenderedOverlay.KUBERNETES.resolve("overlays"))) {
      assertThat(dirs.map(d -> d.getFileName().toString()))
          .containsExactlyInAnyOrderElementsOf(RenderedOverlay.OVERLAYS);
    }
  }

  @Test
  void standaloneRunsOneEmbeddedFlavourReplicaWithItsStoreOnAVolumeClaim() {
    RenderedOverlay standalone = RenderedOverlay.of("standalone");
    SignalboxConfig config = config(standalone);

    assertThat(config.store().embedded()).isTrue();
    assertThat(standalone.deployment().getSpec().getReplicas()).isEqualTo(1);
    // Two pods must never open one data directory: the old one stops before the new one starts.
    assertThat(standalone.deployment().getSpec().getStrategy().getType()).isEqualTo("Recreate");
    VolumeMount data = standalone.container().getVolumeMounts().stream()
        .filter(m -> Path.of(m.getMountPath()).equals(config.store().dataDir())).findFirst()
        .orElseThrow(() -> new AssertionError("nothing is mounted at store.dataDir " + config.store().dataDir()));
    Volume volume = standalone.volume(data.getName());
    assertThat(volume.getPersistentVolumeClaim()).as("volume %s", volume.getName()).isNotNull();
    assertThat(standalone.named(PersistentVolumeClaim.class, volume.getPersistentVolumeClaim().getClaimName())
        .getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(imageFlavour(standalone)).isEqualTo("embedded");
  }

  @Test
  void haRunsThreeExternalFlavourReplicasSpreadOverNodesAndZonesOnOnePostgres() {
    RenderedOverlay ha = RenderedOverlay.of("ha");
    SignalboxConfig config = config(ha);
    Map<String, String> podLabels = ha.deployment().getSpec().getTemplate().getMetadata().getLabels();

    assertThat(ha.deployment().getSpec().getReplicas()).isEqualTo(3);
    assertThat(config.store().url()).startsWith("jdbc:postgresql://");
    assertThat(config.store().user()).as("store.user in a ConfigMap").isNull();
    assertThat(config.store().password()).as("store.password in a ConfigMap").isNull();
    List<TopologySpreadConstraint> spread = ha.pod().getTopologySpreadConstraints();
    assertThat(spread).extracting(TopologySpreadConstraint::getTopologyKey)
        .containsExactlyInAnyOrder("kubernetes.io/hostname", "topology.kubernetes.io/zone");
    assertThat(spread).allSatisfy(c -> assertThat(podLabels).containsAllEntriesOf(c.getLabelSelector().getMatchLabels()));
    Map<String, EnvVar> env = new java.util.HashMap<>();
    ha.container().getEnv().forEach(e -> env.put(e.getName(), e));
    for (String credential : List.of("SIGNALBOX_DATABASE_USER", "SIGNALBOX_DATABASE_PASSWORD")) {
      assertThat(env).containsKey(credential);
      // Without them no replica can start: required, unlike the admin tokens.
      assertThat(env.get(credential).getValueFrom().getSecretKeyRef().getOptional()).isNotEqualTo(Boolean.TRUE);
    }
    assertThat(ha.all(PersistentVolumeClaim.class)).as("volume claims of stateless replicas").isEmpty();
    assertThat(imageFlavour(ha)).isEqualTo("external");
  }

  @Test
  void theHaConfigIsTheStandaloneConfigApartFromStoreAndReplicaSettings() {
    JsonNode standalone = deployed(RenderedOverlay.of("standalone")).tree();
    JsonNode ha = deployed(RenderedOverlay.of("ha")).tree();
    List<String> replicaSettings = Stream.concat(Stream.of("store", "ha"), DeployedConfig.PENDING.stream()).toList();

    assertThat(DeployedConfig.tree(DeployedConfig.without(ha.toString(), replicaSettings)))
        .isEqualTo(DeployedConfig.tree(DeployedConfig.without(standalone.toString(), replicaSettings)));
  }

  /** The image's tag names the Dockerfile target (flavour) it was built from. */
  private static String imageFlavour(RenderedOverlay rendered) {
    String image = rendered.container().getImage();
    String tag = image.substring(image.lastIndexOf(':') + 1);
    assertThat(Dockerfile.read().stages()).as("Dockerfile targets").containsKey(tag);
    return tag;
  }

  private DeployedConfig deployed(RenderedOverlay rendered) {
    try {
      return DeployedConfig.of(rendered.configFile(KubernetesManifestsTest.configPath(rendered)),
          Files.createTempDirectory(dir, rendered.name()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private SignalboxConfig config(RenderedOverlay rendered) {
    return deployed(rendered).config();
  }
}
