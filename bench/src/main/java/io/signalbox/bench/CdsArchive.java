package io.signalbox.bench;

import io.signalbox.controlplane.JvmSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cds-archive}: builds Signalbox's class-data-sharing archive (AppCDS, JDK 17's dynamic
 * archive) from a short training run, so that a server started with {@code
 * -XX:SharedArchiveFile=signalbox.jsa} maps the classes of its start-up and of its first changes
 * already parsed and verified instead of loading them from the 180 MB jar.
 *
 * <p>The training is the load tool's scenario at small scale against the jar, with {@code
 * -XX:ArchiveClassesAtExit}: start (embedded PostgreSQL by default, as {@code serve} starts), a
 * connect storm of SotW clients, a few one-endpoint changes, stop; the JVM writes the classes it
 * loaded when it exits. The archive is then opened with {@code -Xshare:on}, which refuses to start
 * on an archive it cannot use, before it replaces the previous one.
 *
 * <p>An archive holds for exactly one jar file and one JDK build: a rebuilt jar or another JDK
 * makes the JVM ignore it with a warning and load classes as usual. The bench module runs this at
 * {@code package} time when asked to ({@code -Pcds} or {@code -Dsignalbox.cds}: the training takes
 * over a minute on two cores, too long for every build); a failed training leaves no archive and
 * fails nothing, because the server runs the same without one.
 */
@Command(name = "cds-archive", mixinStandardHelpOptions = true,
    description = "Build control-plane/target/signalbox.jsa (AppCDS) from a short training run of the jar.")
final class CdsArchive implements Callable<Integer> {

  @Option(names = "--signalbox-jar", defaultValue = "control-plane/target/signalbox.jar") Path signalboxJar;
  @Option(names = "--archive", defaultValue = "control-plane/target/signalbox.jsa") Path archive;
  @Option(names = "--store", defaultValue = "embedded", description = "store.url of the training run") String store;
  @Option(names = "--work-dir", defaultValue = "${sys:java.io.tmpdir}/signalbox-cds") Path workDir;
  @Option(names = "--strict", description = "Exit 1 when no archive could be built (default: warn, exit 0)")
  boolean strict;

  @Override
  public Integer call() throws Exception {
    // A package-time step: its outcome is the one line printed below, not the training's progress.
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("io.signalbox.bench"))
        .setLevel(ch.qos.logback.classic.Level.WARN);
    long started = System.nanoTime();
    Path jar = signalboxJar.toAbsolutePath().normalize();
    Path target = archive.toAbsolutePath().normalize();
    Path dumped = target.resolveSibling(target.getFileName() + ".tmp");
    Files.deleteIfExists(dumped);
    String failure;
    try {
      failure = train(jar, dumped);
    } catch (RuntimeException e) {
      failure = "the training run failed: " + e.getMessage();
    }
    if (failure == null) {
      failure = check(jar, dumped);
    }
    if (failure != null) {
      Files.deleteIfExists(dumped);
      System.err.println("WARNING: no class-data-sharing archive built (" + failure + "); Signalbox runs the same"
          + " without one, only its start-up and first changes load their classes from the jar");
      return strict ? 1 : 0;
    }
    Files.move(dumped, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    System.out.printf("wrote %s (%d MB) in %d s; start the server with -XX:SharedArchiveFile=%s%n", target,
        Files.size(target) >> 20, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), target);
    return 0;
  }

  /** Runs the training; null when the JVM wrote {@code dumped}, or what went wrong. */
  private String train(Path jar, Path dumped) throws InterruptedException {
    if (!Files.isRegularFile(jar)) {
      return "no jar at " + jar;
    }
    Scenario scenario = new Scenario(Scenario.Target.SIGNALBOX, Fleet.Mode.SOTW, 20, new Workload(20, 10),
        new ChangePlan(0, 3, 0, 0), store, "100ms", "100ms",
        List.of("-Xmx512m", "-XX:ArchiveClassesAtExit=" + dumped), JvmSettings.RECOMMENDED, List.of(), jar, dumped,
        LoadTool.absoluteClasspath(), workDir, Duration.ofSeconds(60));
    RunResult result = LoadRun.run(scenario); // stopping the server (SIGTERM) makes it write the archive
    if (result.unconverged() != 0 || result.notReady() != 0 || result.errors() != 0) {
      return "the training fleet did not converge";
    }
    return Files.isRegularFile(dumped) ? null : "the JVM wrote no archive at " + dumped;
  }

  /** Null when a JVM starts on the archive with {@code -Xshare:on} (no fallback), or why it does not. */
  private static String check(Path jar, Path dumped) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JvmSettings.RECOMMENDED);
    command.addAll(List.of("-XX:SharedArchiveFile=" + dumped, "-Xshare:on", "-jar", jar.toString(), "--version"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      return "a JVM cannot start on it: " + out.strip();
    }
    return null;
  }
}
