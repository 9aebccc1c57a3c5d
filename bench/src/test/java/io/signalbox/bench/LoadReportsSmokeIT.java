package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.JvmSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load tool's clients sending load reports to the Signalbox jar the reactor packaged: the
 * server answers every client's LRS stream, uses its reports and refuses no entry of them (every
 * cluster and zone named is one it serves). Correctness only, never speed.
 */
class LoadReportsSmokeIT {

  private static final int CLIENTS = 10;

  @TempDir
  Path workDir;

  @Test
  void everyClientsReportsAreUsedAndNoEntryIsRefused() throws Exception {
    Path jar = Path.of(System.getProperty("signalbox.jar", "../control-plane/target/signalbox.jar"));
    // A one-second interval, so a short window holds several reports of every client.
    Scenario scenario = new Scenario(Scenario.Target.SIGNALBOX, Fleet.Mode.SOTW, CLIENTS, new Workload(5, 6, 3),
        new ChangePlan(0, 0, 0, 1), "memory", "100ms", "100ms", List.of("-Xmx512m"), JvmSettings.RECOMMENDED,
        List.of(), jar, jar.resolveSibling("signalbox.jsa"), LoadTool.absoluteClasspath(), workDir,
        Duration.ofSeconds(30), "1s", Duration.ofSeconds(5));

    RunResult result = LoadRun.run(scenario);

    assertThat(result.loadReports()).isTrue();
    assertThat(result.errors()).isZero();
    assertThat(result.unconverged()).isZero();
    RunResult.Steady steady = result.steady();
    assertThat(steady.reportErrors()).isZero();
    assertThat(steady.reportsSent()).isGreaterThanOrEqualTo(2L * CLIENTS);
    // Every report sent before the scrape, less those still on their way or waiting to be summed.
    assertThat(steady.reportsUsed()).isBetween(steady.reportsSentInAll() - CLIENTS, steady.reportsSentInAll());
    assertThat(steady.reportsRefused()).isZero();
  }
}
