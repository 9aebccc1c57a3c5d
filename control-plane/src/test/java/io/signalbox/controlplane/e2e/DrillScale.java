package io.signalbox.controlplane.e2e;

import java.time.Duration;
import java.util.Locale;

/**
 * How big the fault drills ({@code *DrillIT}) run. {@code mvn verify} runs them small
 * ({@code ci}, the default); {@code -Ddrill.scale=full} runs them at the sizes
 * {@code docs/reliability.md} reports. {@code -Ddrill.seed=N} changes the seed of every random
 * choice (kill moments, edit timing, rename or in place); the same seed makes the same choices.
 *
 * @param crashRounds SIGKILL-and-restart rounds of {@code CrashDrillIT}
 * @param frozenRounds of those, how many run frozen (the freeze must survive them)
 * @param storeOutage how long PostgreSQL stays stopped in {@code StoreOutageDrillIT}
 * @param configEdits edits of {@code ConfigEditDrillIT}, every 10th invalid
 * @param configEditWindow the time they are spread over
 * @param apiServerOutage how long the Kubernetes API server stays away in {@code KubernetesDrillIT}
 * @param kubernetesCycles how many times {@code KubernetesDrillIT} runs its three faults
 */
record DrillScale(
    String name,
    long seed,
    int crashRounds,
    int frozenRounds,
    Duration storeOutage,
    int configEdits,
    Duration configEditWindow,
    Duration apiServerOutage,
    int kubernetesCycles) {

  static final DrillScale CI = new DrillScale("ci", 13, 2, 1, Duration.ofSeconds(8), 200, Duration.ofSeconds(10),
      Duration.ofSeconds(3), 1);
  static final DrillScale FULL = new DrillScale("full", 13, 20, 4, Duration.ofSeconds(60), 1000,
      Duration.ofSeconds(50), Duration.ofSeconds(30), 3);

  /** From {@code -Ddrill.scale} ({@code ci} or {@code full}) and {@code -Ddrill.seed}. */
  static DrillScale fromSystemProperties() {
    String name = System.getProperty("drill.scale", "ci").strip().toLowerCase(Locale.ROOT);
    DrillScale scale = switch (name) {
      case "ci", "" -> CI;
      case "full" -> FULL;
      default -> throw new IllegalArgumentException("drill.scale must be 'ci' or 'full', was '" + name + "'");
    };
    String seed = System.getProperty("drill.seed");
    return seed == null || seed.isBlank() ? scale : scale.withSeed(Long.parseLong(seed.strip()));
  }

  DrillScale withSeed(long s) {
    return new DrillScale(name, s, crashRounds, frozenRounds, storeOutage, configEdits, configEditWindow,
        apiServerOutage, kubernetesCycles);
  }
}
