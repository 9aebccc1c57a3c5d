package io.signalbox.controlplane.config;

import io.signalbox.source.file.WatchedFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where endpoints come from.
 *
 * @param files watched endpoint files ({@code io.signalbox.source.file}); absolute once loaded
 * @param precedence source kinds ({@code file}, {@code kubernetes}, {@code registry}), strongest
 *     first: which source wins when two report the same endpoint differently. Empty: such a
 *     conflict is an error, not a silent pick.
 * @param fileQuietPeriod how long an endpoint file must hold still (size, mtime, inode) before it
 *     is read: a writer that rewrites the file in place is not read half-way. Every change through a
 *     file waits this long; {@code 0ms} is safe only when every writer renames a complete file into
 *     place ({@code mv}, Kubernetes ConfigMap volumes).
 * @param fileMaxBytes an endpoint file larger than this is refused (the source is FAILED), never
 *     read: a runaway generator, or {@code /dev/zero} behind a symlink, must not take the heap
 */
public record SourcesSettings(List<Path> files, KubernetesSettings kubernetes, RegistrySettings registry,
    List<String> precedence, Duration fileQuietPeriod, Long fileMaxBytes) {
  public static final Duration DEFAULT_FILE_QUIET_PERIOD = WatchedFile.Timing.DEFAULT.quietPeriod();

  public SourcesSettings {
    fileQuietPeriod = fileQuietPeriod == null ? DEFAULT_FILE_QUIET_PERIOD : fileQuietPeriod;
    fileMaxBytes = fileMaxBytes == null ? WatchedFile.DEFAULT_MAX_BYTES : fileMaxBytes;
    if (fileMaxBytes < 1 || fileMaxBytes > WatchedFile.MAX_MAX_BYTES) {
      throw new IllegalArgumentException(
          "sources.fileMaxBytes must be 1.." + WatchedFile.MAX_MAX_BYTES + ", was " + fileMaxBytes);
    }
    precedence = precedence == null ? List.of() : List.copyOf(precedence);
    files = files == null ? List.of() : List.copyOf(files);
    kubernetes = kubernetes == null ? KubernetesSettings.defaults() : kubernetes;
    registry = registry == null ? RegistrySettings.defaults() : registry;
  }

  public SourcesSettings(List<Path> files, KubernetesSettings kubernetes, RegistrySettings registry) {
    this(files, kubernetes, registry, null, null, null);
  }

  public static SourcesSettings defaults() {
    return new SourcesSettings(null, null, null, null, null, null);
  }

  /** How endpoint files are watched. */
  public WatchedFile.Timing fileTiming() {
    return new WatchedFile.Timing(fileQuietPeriod, WatchedFile.Timing.DEFAULT.pollInterval());
  }

  SourcesSettings resolvedAgainst(Path baseDir) {
    return new SourcesSettings(
        files.stream().map(f -> baseDir.resolve(f).normalize()).toList(), kubernetes.resolvedAgainst(baseDir),
        registry, precedence, fileQuietPeriod, fileMaxBytes);
  }
}
