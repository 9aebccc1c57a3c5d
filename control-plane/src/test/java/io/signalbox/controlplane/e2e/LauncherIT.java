package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher {@code mvn package} leaves beside the jar ({@code target/signalbox}): it runs,
 * {@code --version} names the version and the commit, and it gives the server and the CLI each
 * their own JVM options (seen through {@code -XX:+PrintCommandLineFlags}).
 */
class LauncherIT {

  static final Path LAUNCHER = Path.of("target", "signalbox").toAbsolutePath();

  @TempDir Path dir;

  record Run(int exit, String out) {}

  Run run(Map<String, String> env, String... args) throws Exception {
    Path out = dir.resolve("launcher-" + System.nanoTime() + ".out");
    ProcessBuilder builder = new ProcessBuilder(concat(LAUNCHER.toString(), args))
        .redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().remove("SIGNALBOX_HEAP");
    builder.environment().remove("SIGNALBOX_JAVA_OPTS");
    // The launcher runs the java this test runs on, whatever the PATH holds.
    ProcessHandle.current().info().command().map(Path::of).map(java -> java.getParent().getParent())
        .ifPresent(home -> builder.environment().put("JAVA_HOME", home.toString()));
    builder.environment().putAll(env);
    Process process = builder.start();
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("signalbox %s exits", List.of(args)).isTrue();
    return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  private static List<String> concat(String first, String... rest) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), java.util.stream.Stream.of(rest)).toList();
  }

  @Test
  void versionNamesTheProjectVersionAndTheCommit() throws Exception {
    assertThat(LAUNCHER).as("written by package").isExecutable();

    Run version = run(Map.of(), "--version");

    assertThat(version.exit()).isZero();
    assertThat(version.out().strip()).matches("signalbox \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{12}|unknown)\\)");
    if (insideGitCheckout()) {
      assertThat(version.out()).doesNotContain("commit unknown");
    }
  }

  @Test
  void theServerGetsTheShippedOptionsAndTheCliALightJvm() throws Exception {
    Map<String, String> flags = Map.of("SIGNALBOX_JAVA_OPTS", "-XX:+PrintCommandLineFlags");

    Run server = run(flags, "--heap", "64m", "serve", "--help");
    Run cli = run(flags, "status", "--help");

    assertThat(server.exit()).as(server.out()).isZero();
    assertThat(server.out()).contains("-XX:+UseParallelGC", "-XX:+UseTransparentHugePages", "-XX:+AlwaysPreTouch",
        "-XX:InitialHeapSize=67108864", "-XX:MaxHeapSize=67108864", "Run the control plane.");
    assertThat(cli.exit()).as(cli.out()).isZero();
    assertThat(cli.out()).contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:MaxHeapSize=134217728")
        .doesNotContain("-XX:+AlwaysPreTouch");
  }

  private static boolean insideGitCheckout() throws IOException, InterruptedException {
    try {
      Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0;
    } catch (IOException e) {
      return false; // no git: the build wrote "unknown"
    }
  }
}
