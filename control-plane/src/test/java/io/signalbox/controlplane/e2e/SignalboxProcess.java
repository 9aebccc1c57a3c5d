package io.signalbox.controlplane.e2e;

import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The built jar ({@code target/signalbox.jar}) running {@code serve} in a child JVM, the way an
 * operator runs it, with its output appended to a log file. Knows how to crash it both ways DESIGN
 * §6 names: the JVM killed alone (its embedded PostgreSQL left running on the data directory) and
 * the whole process tree killed.
 */
final class SignalboxProcess implements AutoCloseable {

  /** Built by {@code package}, which runs before failsafe's {@code integration-test}. */
  static final Path JAR = Path.of("target", "signalbox.jar").toAbsolutePath();

  private final Process jvm;
  private final Path postgresDataDir;
  private final Path log;

  private SignalboxProcess(Process jvm, Path postgresDataDir, Path log) {
    this.jvm = jvm;
    this.postgresDataDir = postgresDataDir;
    this.log = log;
  }

  /**
   * Starts {@code serve --config config}. {@code dataDir} is the config's {@code store.dataDir}:
   * the embedded server's files, and its {@code postmaster.pid}, are in {@code dataDir/postgres}.
   */
  static SignalboxProcess start(Path config, Path dataDir, Path log) {
    if (!Files.isRegularFile(JAR)) {
      throw new IllegalStateException(JAR + " is missing: run 'mvn package' (failsafe runs after it)");
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    // C1 only and a small heap: the child must start fast on a 2-core machine; it serves a few epochs.
    ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
        "-jar", JAR.toString(), "serve", "--config", config.toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().remove("SIGNALBOX_DATABASE_URL");
    try {
      return new SignalboxProcess(builder.start(), EmbeddedDatabase.clusterDirectory(dataDir), log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + JAR, e);
    }
  }

  /** Waits for the JVM to exit by itself; its exit code, or empty if it is still running then. */
  java.util.OptionalInt awaitExit(java.time.Duration timeout) throws InterruptedException {
    return jvm.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        ? java.util.OptionalInt.of(jvm.exitValue()) : java.util.OptionalInt.empty();
  }

  long pid() {
    return jvm.pid();
  }

  boolean isAlive() {
    return jvm.isAlive();
  }

  /**
   * SIGKILL to the JVM alone ({@code destroyForcibly} on Linux): no shutdown hook runs, and the
   * embedded PostgreSQL keeps running on the data directory, orphaned.
   */
  void killJvm() {
    jvm.destroyForcibly();
    await(jvm.toHandle());
  }

  /** SIGKILL to the JVM and every process it started, PostgreSQL included: a power cut, roughly. */
  void killTree() {
    List<ProcessHandle> all = new ArrayList<>(everyProcess());
    all.forEach(ProcessHandle::destroyForcibly);
    all.forEach(SignalboxProcess::await);
  }

  /** SIGTERM: the shutdown hook closes the server, which stops the embedded PostgreSQL. */
  void stop() {
    jvm.destroy();
    await(jvm.toHandle());
  }

  /** The PostgreSQL server running on this data directory, if any (the pid file's first line). */
  Optional<ProcessHandle> postmaster() {
    return EmbeddedDatabase.postmaster(postgresDataDir);
  }

  /**
   * The JVM, its descendants, and the postmaster with its backends: {@code pg_ctl} exits once the
   * server is up, so the postmaster is reparented and is no longer the JVM's descendant.
   */
  private Set<ProcessHandle> everyProcess() {
    Set<ProcessHandle> all = new LinkedHashSet<>();
    all.add(jvm.toHandle());
    jvm.descendants().forEach(all::add);
    postmaster().ifPresent(p -> {
      all.add(p);
      p.descendants().forEach(all::add);
    });
    return all;
  }

  /** The last lines of the child's output, for assertion messages. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Leaves nothing running, whatever state the test left the child in. */
  @Override
  public void close() {
    try {
      if (jvm.isAlive()) {
        stop();
      }
    } finally {
      killTree();
    }
  }

  private static void await(ProcessHandle process) {
    try {
      process.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("process " + process.pid() + " did not exit within 30 s", e);
    }
  }
}
