package io.signalbox.controlplane.config;

import java.nio.file.Path;
import java.util.List;

/**
 * Where endpoints come from.
 *
 * @param files watched endpoint files ({@code io.signalbox.source.file}); absolute once loaded
 * @param precedence source kinds ({@code file}, {@code kubernetes}, {@code registry}), strongest
 *     first: which source wins when two report the same endpoint differently. Empty: such a
 *     conflict is an error, not a silent pick.
 */
public record SourcesSettings(List<Path> files, KubernetesSettings kubernetes, RegistrySettings registry,
    List<String> precedence) {
  public SourcesSettings {
    precedence = precedence == null ? List.of() : List.copyOf(precedence);
    files = files == null ? List.of() : List.copyOf(files);
    kubernetes = kubernetes == null ? KubernetesSettings.defaults() : kubernetes;
    registry = registry == null ? RegistrySettings.defaults() : registry;
  }

  public SourcesSettings(List<Path> files, KubernetesSettings kubernetes, RegistrySettings registry) {
    this(files, kubernetes, registry, null);
  }

  public static SourcesSettings defaults() {
    return new SourcesSettings(null, null, null, null);
  }

  SourcesSettings resolvedAgainst(Path baseDir) {
    return new SourcesSettings(
        files.stream().map(f -> baseDir.resolve(f).normalize()).toList(), kubernetes.resolvedAgainst(baseDir),
        registry, precedence);
  }
}
