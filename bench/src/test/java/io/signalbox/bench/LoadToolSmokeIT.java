package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.JvmSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load tool end to end at small scale, against the Signalbox jar the reactor packaged earlier:
 * correctness only (every client gets every change, and a change costs each client one EDS
 * response carrying one ClusterLoadAssignment, in the cold phase as in the warm one), never speed.
 */
class LoadToolSmokeIT {

  private static final int CLIENTS = 50;
  /** One unmeasured change, one cold, none between, two warm. */
  private static final ChangePlan PLAN = new ChangePlan(1, 1, 0, 2);

  @TempDir
  Path workDir;

  @Test
  void everySotwClientConvergesOnEveryChangeAndReceivesOnlyTheChangedAssignment() throws Exception {
    assertConvergedOnOneAssignmentPerChange(LoadRun.run(scenario(Fleet.Mode.SOTW)));
  }

  @Test
  void everyDeltaClientConvergesOnEveryChangeAndReceivesOnlyTheChangedAssignment() throws Exception {
    assertConvergedOnOneAssignmentPerChange(LoadRun.run(scenario(Fleet.Mode.DELTA)));
  }

  @Test
  void theFloorKeepsEverySotwClientCurrentWithOneResponsePerChange() throws Exception {
    assertFloorConverged(LoadRun.run(scenario(Scenario.Target.FLOOR, Fleet.Mode.SOTW)));
  }

  @Test
  void theFloorSendsEveryDeltaClientOnlyTheChangedAssignment() throws Exception {
    assertFloorConverged(LoadRun.run(scenario(Scenario.Target.FLOOR, Fleet.Mode.DELTA)));
  }

  /** The floor is measured beside Signalbox only if it does the same job: every client, every change, once. */
  private static void assertFloorConverged(RunResult result) {
    assertThat(result.notReady()).isZero();
    assertThat(result.errors()).isZero();
    for (RunResult.Phase phase : result.phases()) {
      for (RunResult.ChangeResult change : phase.changes()) {
        assertThat(change.unconverged()).as("change %d", change.index()).isZero();
        assertThat(change.latencyMillis()).as("change %d", change.index()).hasSize(CLIENTS);
        assertThat(change.responsesPerClient()).as("change %d", change.index()).containsOnly(1L);
        // EDS carries only what changed, in SotW as in delta: the floor sends what Signalbox sends.
        assertThat(change.resourcesPerClient()).as("change %d", change.index()).containsOnly(1L);
      }
    }
  }

  private static void assertConvergedOnOneAssignmentPerChange(RunResult result) {
    assertThat(result.notReady()).isZero();
    assertThat(result.errors()).isZero();
    assertThat(result.startMillis()).isPositive();
    assertThat(result.phases()).extracting(RunResult.Phase::name).containsExactly("cold", "warm");
    assertPhase(result.phase("cold").orElseThrow(), PLAN.cold());
    assertPhase(result.phase("warm").orElseThrow(), PLAN.warm());
  }

  private static void assertPhase(RunResult.Phase phase, int changes) {
    assertThat(phase.changes()).hasSize(changes);
    for (RunResult.ChangeResult change : phase.changes()) {
      assertThat(change.unconverged()).as("change %d", change.index()).isZero();
      assertThat(change.latencyMillis()).as("change %d", change.index()).hasSize(CLIENTS);
      assertThat(change.responsesPerClient()).as("change %d", change.index()).containsOnly(1L);
      assertThat(change.resourcesPerClient()).as("change %d", change.index()).containsOnly(1L);
      assertThat(change.edsResponses()).as("change %d", change.index()).isEqualTo(CLIENTS);
      // One response carrying one 10-endpoint ClusterLoadAssignment: the same size for every client.
      assertThat(Arrays.stream(change.bytesPerClient()).distinct().count()).isOne();
      assertThat(change.bytesPerClient()[0]).isBetween(200L, 1024L);
    }
    assertThat(phase.serializations()).isEqualTo(changes);
  }

  private Scenario scenario(Fleet.Mode mode) {
    return scenario(Scenario.Target.SIGNALBOX, mode);
  }

  private Scenario scenario(Scenario.Target target, Fleet.Mode mode) {
    Path jar = Path.of(System.getProperty("signalbox.jar", "../control-plane/target/signalbox.jar"));
    return new Scenario(target, mode, CLIENTS, new Workload(10, 10), PLAN, "memory", "100ms", "100ms",
        List.of("-Xmx512m"), JvmSettings.RECOMMENDED, List.of(), jar, jar.resolveSibling("signalbox.jsa"),
        LoadTool.absoluteClasspath(), workDir, Duration.ofSeconds(30));
  }
}
