package io.signalbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One load run: which control plane, how many clients speaking which variant, what they are fed,
 * and how the server JVM is started.
 *
 * @param signalboxJar {@code control-plane/target/signalbox.jar}
 * @param benchClasspath the class path holding {@link PlainJavaControlPlane} (this JVM's own)
 * @param workDir where config, endpoint file and server logs go; one subdirectory per run
 * @param store Signalbox's {@code store.url}: {@code memory} or {@code embedded}
 * @param warmupChanges changes applied and not measured before the {@code changes} that are: the
 *     change path's first JIT compilations (seconds of C2 time on two cores) would otherwise be
 *     billed to the first measured changes, and a control plane runs for days, not for 20 changes
 * @param debounce Signalbox's {@code reconcile.debounce}
 * @param fileQuietPeriod {@code sources.fileQuietPeriod}, for both control planes
 * @param convergeTimeout how long every client may take to hold a change (and, ×4, the connect storm)
 */
public record Scenario(
    Target target,
    Fleet.Mode mode,
    int clients,
    Workload workload,
    int changes,
    int warmupChanges,
    String store,
    String debounce,
    String fileQuietPeriod,
    List<String> serverJvmOptions,
    Path signalboxJar,
    String benchClasspath,
    Path workDir,
    Duration convergeTimeout) {

  /** The control plane under test. */
  public enum Target { SIGNALBOX, PLAIN }

  public Scenario {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(workload, "workload");
    if (clients < 1 || clients > 20_000) {
      throw new IllegalArgumentException("clients must be 1..20000, was " + clients);
    }
    if (changes < 0 || changes > 1_000) {
      throw new IllegalArgumentException("changes must be 0..1000, was " + changes);
    }
    if (warmupChanges < 0 || warmupChanges > 1_000) {
      throw new IllegalArgumentException("warm-up changes must be 0..1000, was " + warmupChanges);
    }
    serverJvmOptions = List.copyOf(serverJvmOptions);
  }

  Scenario withTarget(Target other) {
    return new Scenario(other, mode, clients, workload, changes, warmupChanges, store, debounce, fileQuietPeriod, serverJvmOptions, signalboxJar,
        benchClasspath, workDir, convergeTimeout);
  }

  String label() {
    return target.name().toLowerCase() + "-" + mode.name().toLowerCase() + "-" + clients;
  }
}
