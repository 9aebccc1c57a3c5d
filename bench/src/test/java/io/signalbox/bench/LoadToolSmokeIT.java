package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load tool end to end at small scale, against the Signalbox jar the reactor packaged earlier:
 * correctness only (every client gets every change, and a change costs each client one EDS
 * response carrying one ClusterLoadAssignment), never speed.
 */
class LoadToolSmokeIT {

  private static final int CLIENTS = 50;
  private static final int CHANGES = 3;

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

  private static void assertConvergedOnOneAssignmentPerChange(RunResult result) {
    assertThat(result.notReady()).isZero();
    assertThat(result.errors()).isZero();
    assertThat(result.changes()).hasSize(CHANGES);
    for (RunResult.ChangeResult change : result.changes()) {
      assertThat(change.unconverged()).as("change %d", change.index()).isZero();
      assertThat(change.latencyMillis()).as("change %d", change.index()).hasSize(CLIENTS);
      assertThat(change.responsesPerClient()).as("change %d", change.index()).containsOnly(1L);
      assertThat(change.resourcesPerClient()).as("change %d", change.index()).containsOnly(1L);
      assertThat(change.edsResponses()).as("change %d", change.index()).isEqualTo(CLIENTS);
      // One response carrying one 10-endpoint ClusterLoadAssignment: the same size for every client.
      assertThat(Arrays.stream(change.bytesPerClient()).distinct().count()).isOne();
      assertThat(change.bytesPerClient()[0]).isBetween(200L, 1024L);
    }
    assertThat(result.serializations()).isEqualTo(CHANGES);
  }

  private Scenario scenario(Fleet.Mode mode) {
    return new Scenario(Scenario.Target.SIGNALBOX, mode, CLIENTS, new Workload(10, 10), CHANGES, 1, "memory", "100ms", "100ms",
        List.of("-Xmx512m"), Path.of(System.getProperty("signalbox.jar", "../control-plane/target/signalbox.jar")),
        LoadTool.absoluteClasspath(), workDir, Duration.ofSeconds(30));
  }
}
