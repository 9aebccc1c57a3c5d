package io.signalbox.bench;

import io.signalbox.store.embedded.EmbeddedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link Scenario}: starts the control plane as a process, connects the fleet, applies the
 * changes through the endpoint file and measures. Every wait is bounded; the server is stopped
 * whatever happens.
 */
public final class LoadRun {

  private static final Logger log = LoggerFactory.getLogger(LoadRun.class);
  /** A fleet that has received nothing for this long has received everything a change causes. */
  private static final Duration QUIET = Duration.ofMillis(300);
  private static final Pattern SERIALIZATIONS = Pattern.compile("\"resourceSerializations\"\\s*:\\s*(\\d+)");
  private static final int WARMUP_CLIENTS = 20;
  private static final int WARMUP_ROUNDS = 3;
  private static final Duration MAX_SETTLE = Duration.ofSeconds(15);

  private final Scenario scenario;
  private final Duration hold;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private LoadRun(Scenario scenario, Duration hold) {
    this.scenario = scenario;
    this.hold = hold;
  }

  public static RunResult run(Scenario scenario) throws InterruptedException {
    return run(scenario, Duration.ZERO);
  }

  /**
   * @param hold how long the server and the connected fleet stay up after the measurements, for a
   *     look at the dashboard under load (the screenshot in docs/ was taken this way)
   */
  public static RunResult run(Scenario scenario, Duration hold) throws InterruptedException {
    return new LoadRun(scenario, hold).run();
  }

  private RunResult run() throws InterruptedException {
    Workload workload = scenario.workload();
    Path dir = directory();
    int xdsPort = freePort();
    int adminPort = freePort();
    write(dir, "endpoints.yaml", workload.endpointFile(0));
    // The baselines serve no LRS: their clients would only count failed streams.
    boolean loadReports = scenario.loadReports() && scenario.target().signalbox();
    write(dir, "signalbox.yaml", workload.config(xdsPort, adminPort, scenario.store(), scenario.debounce(),
        scenario.fileQuietPeriod(), loadReports ? scenario.loadReportingInterval() : null));
    log.info("{}: starting the server in {}", scenario.label(), dir);
    long spawned = System.nanoTime();
    try (ServerProcess server = startServer(dir, xdsPort, adminPort)) {
      double startMillis = (System.nanoTime() - spawned) / 1e6;
      double startCpuMillis = server.cpuMillis();
      log.info("{}: serving {} ms after the process was started", scenario.label(), Math.round(startMillis));
      warmUp(workload, xdsPort);
      long heapIdle = server.heapAfterGc();
      try (Fleet fleet = new Fleet(scenario.clients(), scenario.mode(), workload, new int[] {xdsPort}, loadReports,
          Scenario.LOAD_SEED)) {
        long started = System.nanoTime();
        fleet.connect();
        long stormTimeout = scenario.convergeTimeout().toMillis() * 4;
        boolean allReady = fleet.awaitReady(stormTimeout);
        double stormMillis = allReady ? (fleet.lastReadyNanos() - started) / 1e6 : stormTimeout;
        log.info("{}: connect storm {} ms, {} clients not ready, {} stream errors", scenario.label(),
            Math.round(stormMillis), fleet.notReady(), fleet.total(s -> s.errors.get()));
        if (!allReady) {
          log.warn("{}: not ready after the storm: {}", scenario.label(), fleet.notReadyClients(5));
        }
        settle(fleet);
        long heapPerClient = (server.heapAfterGc() - heapIdle) / scenario.clients();

        ChangePlan plan = scenario.plan();
        List<RunResult.Phase> phases = new ArrayList<>();
        int k = unmeasured(dir, fleet, 0, plan.coldAfter());
        if (plan.cold() > 0) {
          phases.add(measured("cold", dir, fleet, server, adminPort, k, plan.cold()));
        }
        k = unmeasured(dir, fleet, k + plan.cold(), plan.warmup());
        if (plan.warm() > 0) {
          phases.add(measured("warm", dir, fleet, server, adminPort, k, plan.warm()));
        }
        RunResult.Steady steady = scenario.steady().isZero() ? null : steady(dir, fleet, server, adminPort);
        if (!hold.isZero()) {
          log.info("{}: holding {} clients for {}; dashboard at http://127.0.0.1:{}/, endpoint file {}",
              scenario.label(), fleet.size(), hold, adminPort, dir.resolve("endpoints.yaml"));
          TimeUnit.MILLISECONDS.sleep(hold.toMillis());
        }
        return new RunResult(scenario.target(), scenario.mode(), scenario.clients(), startMillis, startCpuMillis,
            stormMillis,
            fleet.notReady(), heapPerClient, fleet.total(s -> s.errors.get()), phases, steady, loadReports);
      }
    }
  }

  /** Applies changes {@code from .. from+count-1} without measuring them; returns the next index. */
  private int unmeasured(Path dir, Fleet fleet, int from, int count) throws InterruptedException {
    for (int k = from; k < from + count; k++) {
      change(dir, fleet, k);
    }
    return from + count;
  }

  /** The embedded store's cluster: the run's config puts {@code store.dataDir} at {@code ./data} (Workload). */
  private static Path cluster(Path dir) {
    return EmbeddedDatabase.clusterDirectory(dir.resolve("data"));
  }

  /** Applies changes {@code from .. from+count-1} and measures them as one phase. */
  private RunResult.Phase measured(String name, Path dir, Fleet fleet, ServerProcess server, int adminPort, int from,
      int count) throws InterruptedException {
    long serializationsBefore = serializations(adminPort);
    long cpuBefore = server.cpuMillis();
    long jitBefore = server.jitCpuMillis();
    long databaseBefore = ServerProcess.postgresCpuMillis(cluster(dir));
    long ownCpuBefore = ServerProcess.ownCpuMillis();
    List<RunResult.ChangeResult> changes = new ArrayList<>();
    for (int k = from; k < from + count; k++) {
      changes.add(change(dir, fleet, k));
    }
    double cpuPerChange = (server.cpuMillis() - cpuBefore) / (double) count;
    double jitPerChange = (server.jitCpuMillis() - jitBefore) / (double) count;
    double databasePerChange = (ServerProcess.postgresCpuMillis(cluster(dir)) - databaseBefore) / (double) count;
    double ownCpuPerChange = (ServerProcess.ownCpuMillis() - ownCpuBefore) / (double) count;
    long serializations = serializationsBefore < 0 ? -1 : serializations(adminPort) - serializationsBefore;
    return new RunResult.Phase(name, changes, cpuPerChange, jitPerChange, databasePerChange, ownCpuPerChange,
        serializations);
  }

  /**
   * Watches the connected fleet for {@code scenario.steady()} with nothing changing: the server's
   * CPU over the window (which holds whole reporting intervals when it is a multiple of one; reports
   * are spread over the interval by when each client's stream opened), then its heap after a GC.
   */
  private RunResult.Steady steady(Path dir, Fleet fleet, ServerProcess server, int adminPort)
      throws InterruptedException {
    if (!scenario.steadyWarmup().isZero()) {
      log.info("{}: {} before the steady window, unmeasured", scenario.label(), scenario.steadyWarmup());
      TimeUnit.MILLISECONDS.sleep(scenario.steadyWarmup().toMillis());
    }
    log.info("{}: steady window of {}", scenario.label(), scenario.steady());
    // Nothing is asked of the server during the window: a /metrics scrape reads the load figures of
    // every cluster, which costs far more than the reports do (it is timed apart, below).
    long sentBefore = fleet.reportsSent();
    long cpuBefore = server.cpuMillis();
    long jitBefore = server.jitCpuMillis();
    long databaseBefore = ServerProcess.postgresCpuMillis(cluster(dir));
    long ownBefore = ServerProcess.ownCpuMillis();
    long started = System.nanoTime();
    TimeUnit.MILLISECONDS.sleep(scenario.steady().toMillis());
    double window = (System.nanoTime() - started) / 1e6;
    long cpu = server.cpuMillis() - cpuBefore;
    long jit = server.jitCpuMillis() - jitBefore;
    long database = ServerProcess.postgresCpuMillis(cluster(dir)) - databaseBefore;
    long own = ServerProcess.ownCpuMillis() - ownBefore;
    long sent = fleet.reportsSent() - sentBefore;
    String loadAverage = loadAverage();
    long heap = server.heapAfterGc();
    // After the heap: one scrape, timed, and the counters it carries (totals over the run).
    long scrapeCpuBefore = server.cpuMillis() + ServerProcess.postgresCpuMillis(cluster(dir));
    long scrapeStarted = System.nanoTime();
    String metrics = metrics(adminPort);
    double scrapeMillis = (System.nanoTime() - scrapeStarted) / 1e6;
    long scrapeCpu = server.cpuMillis() + ServerProcess.postgresCpuMillis(cluster(dir)) - scrapeCpuBefore;
    return new RunResult.Steady(window, cpu, jit, database, own, heap, sent, fleet.reportsSent(),
        metrics == null ? -1 : metricSum(metrics, "signalbox_lrs_reports_total"),
        metrics == null ? -1 : metricSum(metrics, "signalbox_lrs_refused_total"), fleet.reportErrors(),
        loadAverage, scrapeMillis, scrapeCpu);
  }

  /** Signalbox's {@code /metrics}, or null (a baseline, or no answer within two minutes). */
  private String metrics(int adminPort) {
    if (!scenario.target().signalbox()) {
      return null;
    }
    try {
      HttpResponse<String> response = http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
              .timeout(Duration.ofMinutes(2)).build(),
          HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The 1, 5 and 15 minute load averages: the machine is shared, and the figures say how busy it was. */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  /** The sum over a Prometheus text exposition's samples of {@code name} (any labels). */
  static long metricSum(String exposition, String name) {
    double sum = 0;
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return Math.round(sum);
  }

  /**
   * Connects and closes a few clients first, so that neither this JVM's nor the server's class
   * loading and first compilations land in the connect storm of the measured fleet.
   */
  private void warmUp(Workload workload, int xdsPort) throws InterruptedException {
    for (int round = 0; round < WARMUP_ROUNDS; round++) {
      try (Fleet warmup = new Fleet(WARMUP_CLIENTS, scenario.mode(), workload, xdsPort)) {
        warmup.connect();
        if (!warmup.awaitReady(scenario.convergeTimeout().toMillis())) {
          throw new IllegalStateException(scenario.label() + ": warm-up clients never got their config");
        }
      }
    }
  }

  private RunResult.ChangeResult change(Path dir, Fleet fleet, int k) throws InterruptedException {
    Workload workload = scenario.workload();
    Workload.Change change = workload.change(k);
    ChangeTracker tracker = new ChangeTracker(workload.clusterName(change.cluster()), change.address(),
        Workload.port(change.cluster()), change.weight(), fleet.size());
    fleet.expect(tracker);
    Path tmp = write(dir, ".endpoints.yaml.next", workload.endpointFile(k + 1));
    long[] bytes = fleet.perClient(s -> s.bytes.get());
    long[] responses = fleet.perClient(s -> s.responses.get());
    long[] resources = fleet.perClient(s -> s.resources.get());
    long eds = fleet.total(s -> s.edsResponses.get());

    long renamed = System.nanoTime();
    move(tmp, dir.resolve("endpoints.yaml"));
    boolean all = tracker.awaitAll(scenario.convergeTimeout().toMillis());
    settle(fleet);

    double[] latencies = new double[fleet.size()];
    int n = 0;
    for (int i = 0; i < fleet.size(); i++) {
      long seen = tracker.seenAt(i);
      if (seen != 0) {
        latencies[n++] = (seen - renamed) / 1e6;
      }
    }
    RunResult.ChangeResult result = new RunResult.ChangeResult(k, Arrays.copyOf(latencies, n),
        tracker.unconverged(), delta(fleet, s -> s.bytes.get(), bytes), delta(fleet, s -> s.responses.get(), responses),
        delta(fleet, s -> s.resources.get(), resources), fleet.total(s -> s.edsResponses.get()) - eds);
    if (!all) {
      log.warn("{}: change {} reached only {} of {} clients", scenario.label(), k, n, fleet.size());
    }
    return result;
  }

  private static long[] delta(Fleet fleet, ToLongFunction<ClientState> counter, long[] before) {
    long[] now = fleet.perClient(counter);
    for (int i = 0; i < now.length; i++) {
      now[i] -= before[i];
    }
    return now;
  }

  /** Waits until the fleet has received nothing for {@link #QUIET}, at most {@link #MAX_SETTLE}. */
  private static void settle(Fleet fleet) throws InterruptedException {
    long deadline = System.nanoTime() + MAX_SETTLE.toNanos();
    long last = fleet.total(s -> s.bytes.get());
    while (System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(QUIET.toMillis());
      long now = fleet.total(s -> s.bytes.get());
      if (now == last) {
        return;
      }
      last = now;
    }
  }

  private ServerProcess startServer(Path dir, int xdsPort, int adminPort) throws InterruptedException {
    Scenario.Target target = scenario.target();
    List<String> jvmOptions = new ArrayList<>(scenario.jvmOptions());
    List<String> args = new ArrayList<>();
    if (target.signalbox()) {
      if (target == Scenario.Target.SIGNALBOX_CDS) {
        if (!Files.isRegularFile(scenario.cdsArchive())) {
          throw new IllegalStateException("no class-data-sharing archive at " + scenario.cdsArchive()
              + " (see docs/benchmarks.md, \"Class data sharing\")");
        }
        jvmOptions.add("-XX:SharedArchiveFile=" + scenario.cdsArchive().toAbsolutePath());
      }
      args.addAll(List.of("-jar", scenario.signalboxJar().toAbsolutePath().toString(), "serve", "--config",
          "signalbox.yaml"));
    } else if (target == Scenario.Target.FLOOR) {
      args.addAll(List.of("-cp", scenario.benchClasspath(), FloorAdsServer.class.getName(), "--config",
          "signalbox.yaml"));
    } else {
      args.addAll(List.of("-cp", scenario.benchClasspath(), PlainJavaControlPlane.class.getName(), "--config",
          "signalbox.yaml", "--versions", target == Scenario.Target.CAREFUL ? "per-type-hash" : "snapshot"));
    }
    ServerProcess server = ServerProcess.start(target.label(), dir, jvmOptions, args);
    try {
      server.awaitReady(target.signalbox()
          ? () -> ServerProcess.signalboxServing(http, adminPort)
          : () -> ServerProcess.listening(xdsPort), Duration.ofSeconds(120));
    } catch (RuntimeException | InterruptedException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** Signalbox's {@code resourceSerializations}, or -1 for a server that has no such counter. */
  private long serializations(int adminPort) {
    if (!scenario.target().signalbox()) {
      return -1;
    }
    try {
      HttpResponse<String> response = http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/api/v1/status")).build(),
          HttpResponse.BodyHandlers.ofString());
      Matcher m = SERIALIZATIONS.matcher(response.body());
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private Path directory() {
    try {
      Files.createDirectories(scenario.workDir());
      return Files.createTempDirectory(scenario.workDir(), scenario.label() + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory under " + scenario.workDir(), e);
    }
  }

  private static Path write(Path dir, String name, String content) {
    try {
      return Files.writeString(dir.resolve(name), content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + name, e);
    }
  }

  /** The operator's atomic replace: readers see the old file or the new one, never half of one. */
  private static void move(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rename " + from + " to " + to, e);
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }
}
