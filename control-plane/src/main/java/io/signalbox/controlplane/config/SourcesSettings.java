package io.signalbox.controlplane.config;

import java.nio.file.Path;
import java.util.List;

/**
 * Where endpoints come from.
 *
 * @param files watched endpoint files ({@code io.signalbox.source.file}); absolute once loaded
 */
public record SourcesSettings(List<Path> files, KubernetesSettings kubernetes, RegistrySettings registry) {
  public SourcesSettings {
    files = files == null ? List.of() : List.copyOf(files);
    kubernetes = kubernetes == null ? KubernetesSettings.defaults() : kubernetes;
    registry = registry == null ? RegistrySettings.defaults() : registry;
  }

  public static SourcesSettings defaults() {
    return new SourcesSettings(null, null, null);
  }

  SourcesSettings resolvedAgainst(Path baseDir) {
    return new SourcesSettings(
        files.stream().map(f -> baseDir.resolve(f).normalize()).toList(), kubernetes.resolvedAgainst(baseDir),
        registry);
  }
}
