package io.signalbox.controlplane.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The built jar's operator CLI run as a child process, the way an operator runs it. */
final class CliProcess {

  record Result(int exit, String out, String err) {

    List<String> outLines() {
      return out.lines().toList();
    }
  }

  private CliProcess() {}

  /** Runs {@code java -jar signalbox.jar args...} with {@code env} added, and waits up to a minute. */
  static Result run(Path workDir, Map<String, String> env, String... args) {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
        "-jar", SignalboxProcess.JAR.toString()));
    command.addAll(List.of(args));
    return run(command, workDir, null, env);
  }

  /**
   * Runs the launcher ({@code target/signalbox}, what the README's {@code alias signalbox} names)
   * with {@code args} in {@code cwd}, as an operator's shell would, on this test's java.
   */
  static Result launcher(Path workDir, Path cwd, Map<String, String> env, List<String> args) {
    List<String> command = new ArrayList<>(List.of(LauncherIT.LAUNCHER.toString()));
    command.addAll(args);
    Map<String, String> withJava = new HashMap<>(env);
    ProcessHandle.current().info().command().map(Path::of).map(java -> java.getParent().getParent())
        .ifPresent(home -> withJava.put("JAVA_HOME", home.toString()));
    return run(command, workDir, cwd, withJava);
  }

  private static Result run(List<String> command, Path workDir, Path cwd, Map<String, String> env) {
    Path out = workDir.resolve("cli-" + System.nanoTime() + ".out");
    Path err = workDir.resolve("cli-" + System.nanoTime() + ".err");
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile());
    if (cwd != null) {
      builder.directory(cwd.toFile());
    }
    builder.environment().remove("SIGNALBOX_SERVER");
    builder.environment().remove("SIGNALBOX_TOKEN");
    builder.environment().remove("SIGNALBOX_JAVA_OPTS");
    builder.environment().putAll(env);
    Process process = null;
    try {
      process = builder.start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException(String.join(" ", command) + " did not exit within 60 s");
      }
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      if (process != null && process.isAlive()) {
        process.destroyForcibly();
      }
    }
  }

  /** Waits for {@code /readyz} to answer 200: the first epoch is served and the store reachable. */
  static void awaitReady(int adminPort, SignalboxProcess server) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/readyz"))
        .timeout(Duration.ofSeconds(5)).build();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptionsInstanceOf(IOException.class)
        .until(() -> {
          if (!server.isAlive()) {
            throw new AssertionError("signalbox exited before it was ready:\n" + server.logTail());
          }
          return http.send(readyz, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        });
  }
}
