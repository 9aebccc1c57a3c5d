package io.signalbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The load tool refuses options it cannot run before it starts any server. */
class LoadToolOptionsTest {

  @TempDir Path dir;

  private record Outcome(int exitCode, String err) {}

  private Outcome load(String... args) {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new LoadTool()).setErr(new PrintWriter(err, true)).execute(args);
    return new Outcome(code, err.toString().strip());
  }

  @Test
  void refusesZeroRounds() {
    assertThat(load("--rounds", "0")).isEqualTo(new Outcome(2, "--rounds must be at least 1, was 0"));
  }

  @Test
  void refusesAnUnknownTarget() {
    assertThat(load("--target", "signalbox,envoy")).isEqualTo(new Outcome(2,
        "unknown target 'envoy' (expected signalbox, signalbox-cds, careful, plain, floor, both or all)"));
  }

  @Test
  void refusesANegativeChangeCount() {
    assertThat(load("--cold-changes", "-1")).isEqualTo(new Outcome(2,
        "change counts must not be negative: cold-after 0, cold -1, warm-up 10, warm 20"));
  }

  @Test
  void refusesMoreChangesThanTheWorkloadHasFreshWeightsFor() {
    assertThat(load("--warmup-changes", "8990", "--changes", "11")).isEqualTo(new Outcome(2,
        "at most 9000 changes in all, was cold-after 0, cold 0, warm-up 8990, warm 11"));
  }

  @Test
  void refusesComparingLoadReportsWithoutASteadyWindow() {
    assertThat(load("--load-reports", "both")).isEqualTo(new Outcome(2,
        "--load-reports both compares the steady windows: give --steady, e.g. PT60S"));
    assertThat(load("--load-reports", "yes")).isEqualTo(new Outcome(2,
        "--load-reports must be off, on or both, was 'yes'"));
  }

  @Test
  void refusesMoreZonesThanEndpoints() {
    assertThat(load("--endpoints", "2", "--zones", "3")).isEqualTo(new Outcome(2, "zones must be 1..2, was 3"));
  }

  @Test
  void refusesANegativeSteadyWarmup() {
    assertThat(load("--steady-warmup", "-PT1S"))
        .isEqualTo(new Outcome(2, "the steady window's warm-up cannot be negative, was PT-1S"));
  }

  @Test
  void everyVariantOfARunKeepsItsSteadyWindowAndWarmup() {
    Scenario run = new Scenario(Scenario.Target.SIGNALBOX, Fleet.Mode.SOTW, 10, new Workload(1, 1),
        new ChangePlan(0, 0, 0, 1), "memory", "100ms", "100ms", List.of(), List.of(), List.of(),
        dir.resolve("signalbox.jar"), dir.resolve("signalbox.jsa"), "", dir, Duration.ofSeconds(1), null,
        Duration.ofSeconds(60), Duration.ofSeconds(30));

    for (Scenario variant : List.of(run.withLoadReports("10s"), run.withTarget(Scenario.Target.SIGNALBOX_CDS))) {
      assertThat(variant.steady()).isEqualTo(Duration.ofSeconds(60));
      assertThat(variant.steadyWarmup()).isEqualTo(Duration.ofSeconds(30));
    }
  }

  @Test
  void refusesTheCdsTargetWithoutAnArchiveBeforeRunningAnyTarget() throws Exception {
    Path jar = Files.createFile(dir.resolve("signalbox.jar"));
    Path archive = dir.resolve("signalbox.jsa");

    Outcome outcome = load("--target", "signalbox,signalbox-cds", "--signalbox-jar", jar.toString(),
        "--cds-archive", archive.toString(), "--work-dir", dir.resolve("work").toString());

    assertThat(outcome).isEqualTo(new Outcome(1, "no class-data-sharing archive at " + archive
        + " (build it: mvn -B -DskipTests package -Pcds; see docs/benchmarks.md, \"Class data sharing\")"));
    assertThat(dir.resolve("work")).doesNotExist();
  }

  @Test
  void eachTargetRunsWithTheServerOptionsAndItsOwn() {
    Scenario signalbox = new Scenario(Scenario.Target.SIGNALBOX, Fleet.Mode.SOTW, 10, new Workload(1, 1),
        new ChangePlan(0, 0, 0, 1), "memory", "100ms", "100ms", List.of("-Xmx1g"), List.of("-XX:+UseParallelGC"),
        List.of("-XX:+UseSerialGC"), dir.resolve("signalbox.jar"), dir.resolve("signalbox.jsa"), "", dir,
        Duration.ofSeconds(1));

    assertThat(signalbox.jvmOptions()).containsExactly("-Xmx1g", "-XX:+UseParallelGC");
    assertThat(signalbox.withTarget(Scenario.Target.SIGNALBOX_CDS).jvmOptions())
        .containsExactly("-Xmx1g", "-XX:+UseParallelGC");
    assertThat(signalbox.withTarget(Scenario.Target.CAREFUL).jvmOptions())
        .containsExactly("-Xmx1g", "-XX:+UseSerialGC");
    assertThat(signalbox.withTarget(Scenario.Target.PLAIN).jvmOptions())
        .containsExactly("-Xmx1g", "-XX:+UseSerialGC");
    assertThat(signalbox.withTarget(Scenario.Target.FLOOR).jvmOptions())
        .containsExactly("-Xmx1g", "-XX:+UseSerialGC");
  }

  @Test
  void readsJvmOptionsAsArgumentsAndBlankAsNone() {
    assertThat(LoadTool.options("  ")).isEmpty();
    assertThat(LoadTool.options(" -Xms1g  -Xmx4g ")).containsExactly("-Xms1g", "-Xmx4g");
    LoadTool tool = new LoadTool();
    new CommandLine(tool).parseArgs();
    assertThat(tool.signalboxJvm.list()).isEqualTo(io.signalbox.controlplane.JvmSettings.RECOMMENDED);
    assertThat(LoadTool.options(tool.baselineJvmOpts))
        .containsExactly("-XX:+UseTransparentHugePages", "-XX:+AlwaysPreTouch")
        .doesNotContain("-XX:+UseParallelGC");
  }
}
