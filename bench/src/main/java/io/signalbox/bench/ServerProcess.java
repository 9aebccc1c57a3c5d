package io.signalbox.bench;

import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A control plane under test, running as its own JVM so that its CPU time and heap are its own:
 * read from {@code /proc/<pid>/stat} and through {@code jcmd}.
 */
final class ServerProcess implements AutoCloseable {

  /** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat on every mainstream kernel. */
  private static final long TICKS_PER_SECOND = 100;
  /** The last line of {@code jcmd GC.class_histogram}: instances, bytes. */
  private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");

  private final String name;
  private final Process process;
  private final Path log;

  private final Thread reaper;

  private ServerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    // A load tool stopped with Ctrl-C or a signal must not leave its server running.
    this.reaper = new Thread(process::destroy, "reap-" + name);
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /** Starts {@code java <jvmOptions> <args>} in {@code dir}, output going to {@code <name>.log} there. */
  static ServerProcess start(String name, Path dir, List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(args);
    Path log = dir.resolve(name + ".log");
    try {
      Process p = new ProcessBuilder(command)
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      return new ServerProcess(name, p, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  long pid() {
    return process.pid();
  }

  /** SIGKILL, as a node failure or the OOM killer ends a process: no shutdown hook, no lease given up. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  /** Polls {@code ready} until it holds, the process dies, or {@code timeout} passes. */
  void awaitReady(BooleanSupplier ready, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log + ":\n"
            + tail());
      }
      if (ready.getAsBoolean()) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(20); // the start-up time is measured by this loop
    }
    throw new IllegalStateException(name + " not ready after " + timeout + "; see " + log + ":\n" + tail());
  }

  /** True once Signalbox's admin API says it is ready and serves an epoch. */
  static boolean signalboxServing(HttpClient http, int adminPort) {
    try {
      HttpResponse<String> readyz = http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/readyz")).build(),
          HttpResponse.BodyHandlers.ofString());
      if (readyz.statusCode() != 200) {
        return false;
      }
      return signalboxEpoch(http, adminPort) >= 1;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** {@code status.epoch} from the admin API. */
  static long signalboxEpoch(HttpClient http, int adminPort) throws IOException, InterruptedException {
    HttpResponse<String> status = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/api/v1/status")).build(),
        HttpResponse.BodyHandlers.ofString());
    Matcher m = Pattern.compile("\"epoch\"\\s*:\\s*(\\d+)").matcher(status.body());
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** True once something accepts TCP connections on {@code 127.0.0.1:port}. */
  static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** User plus system CPU time the process has used so far, in milliseconds (10 ms resolution). */
  long cpuMillis() {
    return cpuMillis(pid(), name);
  }

  /**
   * The server's CPU time spent in HotSpot's JIT compiler threads ({@code C1 CompilerThre...},
   * {@code C2 CompilerThre...}): warm-up, not work a long-running server repeats per change.
   * Threads that ended meanwhile are not counted, so this can only under-report.
   */
  long jitCpuMillis() {
    long ticks = 0;
    try (var tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            ticks += cpuTicks(stat);
          }
        } catch (IOException e) {
          // The thread ended between listing and reading.
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the threads of " + name, e);
    }
    return ticks * 1000 / TICKS_PER_SECOND;
  }

  /**
   * CPU time of the PostgreSQL running on the cluster in {@code clusterDir}, in milliseconds: the
   * embedded store a Signalbox server starts ({@link EmbeddedDatabase#postmaster}: detached, not the
   * server's child) writes every epoch and every client status row. The postmaster and each live
   * backend count their own time and that of their children they have reaped (a backend or
   * autovacuum worker that exited is in its parent's), so nothing is counted twice; a process that
   * exited unreaped between two readings is missed, so this can only under-report. Zero when none
   * runs there (the baselines, {@code --store memory}).
   */
  static long postgresCpuMillis(Path clusterDir) {
    long ticks = 0;
    for (ProcessHandle p : EmbeddedDatabase.postmaster(clusterDir).stream()
        .flatMap(postmaster -> Stream.concat(Stream.of(postmaster), postmaster.descendants())).toList()) {
      try {
        ticks += cpuTicksWithReaped(Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat")));
      } catch (IOException e) {
        // The process ended between listing and reading.
      }
    }
    return ticks * 1000 / TICKS_PER_SECOND;
  }

  /** The same for this JVM: the load generator's own cost, which shares the machine with the server. */
  static long ownCpuMillis() {
    return cpuMillis(ProcessHandle.current().pid(), "the load tool");
  }

  private static long cpuMillis(long pid, String name) {
    try {
      return cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))) * 1000 / TICKS_PER_SECOND;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CPU time of " + name, e);
    }
  }

  /** utime + stime of a {@code /proc/.../stat} line (a process's or one thread's), in ticks. */
  static long cpuTicks(String stat) {
    String[] f = statFields(stat);
    return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime (14th), stime (15th)
  }

  /** The same plus cutime + cstime: what the process's reaped children used. */
  static long cpuTicksWithReaped(String stat) {
    String[] f = statFields(stat);
    // utime, stime, cutime, cstime (14th to 17th)
    return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
  }

  /** The fields after the command name, which is in parentheses and may contain spaces. */
  private static String[] statFields(String stat) {
    return stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
  }

  /** The live heap, in bytes: what {@code jcmd GC.class_histogram} counts after its full GC. */
  long heapAfterGc() {
    // One attach: the histogram collects first (a full GC) and counts what is live, so nothing the
    // server allocates meanwhile is counted. GC.run followed by GC.heap_info, two attaches about half
    // a second apart, counted that half second's garbage too: with 1,000 clients sending load
    // reports they read +36.8 KB per client where the histogram reads +14.5 KB.
    String histogram = jcmd("GC.class_histogram");
    Matcher m = HISTOGRAM_TOTAL.matcher(histogram);
    if (!m.find()) {
      throw new IllegalStateException("cannot read the live heap of " + name + " from:\n"
          + histogram.substring(Math.max(0, histogram.length() - 2_000)));
    }
    return Long.parseLong(m.group(1));
  }

  private String jcmd(String command) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("jcmd " + command + " failed for " + name + ": "
            + new String(out, StandardCharsets.UTF_8));
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + jcmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running jcmd", e);
    }
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook destroys the process.
    }
    process.destroy();
    try {
      // Generous: a JVM asked for a class-data-sharing archive writes it while it exits.
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
