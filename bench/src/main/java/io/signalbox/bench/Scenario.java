package io.signalbox.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One load run: which control plane, how many clients speaking which variant, what they are fed,
 * and how the server JVM is started.
 *
 * @param signalboxJar {@code control-plane/target/signalbox.jar}
 * @param cdsArchive the class-data-sharing archive {@link Target#SIGNALBOX_CDS} starts Signalbox with
 * @param benchClasspath the class path holding {@link PlainJavaControlPlane} (this JVM's own)
 * @param workDir where config, endpoint file and server logs go; one subdirectory per run
 * @param store Signalbox's {@code store.url}: {@code memory} or {@code embedded}
 * @param plan the changes applied, and which are measured as the cold and the warm phase: the
 *     change path's first JIT compilations (seconds of C2 time on two cores) land in the cold
 *     phase, and a control plane runs for days, not for 20 changes
 * @param debounce Signalbox's {@code reconcile.debounce}
 * @param fileQuietPeriod {@code sources.fileQuietPeriod}, for both control planes
 * @param convergeTimeout how long every client may take to hold a change (and, ×4, the connect storm)
 * @param serverJvmOptions the server's JVM options, whichever the target (the heap)
 * @param signalboxJvmOptions added for Signalbox's targets: by default what it ships with
 *     ({@link io.signalbox.controlplane.JvmSettings#RECOMMENDED})
 * @param baselineJvmOptions added for java-control-plane's targets: by default what measured best
 *     for them ({@code LoadTool.BASELINE_JVM_OPTIONS}, with the JVM's G1)
 * @param loadReportingInterval when not null, every cluster has {@code loadReporting: true}, the
 *     server tells clients this interval ({@code xds.loadReportingInterval}, e.g. {@code 10s}) and
 *     every client sends load reports as grpc-java does; null: no client reports
 * @param steady after the changes, how long the connected fleet is watched with nothing changing
 *     (server CPU over that window, then its heap after a GC); zero for none
 * @param steadyWarmup before that window, how long the fleet runs as in it without being measured:
 *     with load reports, long enough for the report path to be compiled (a server that runs for
 *     days pays its JIT once), so the window is the steady state
 */
public record Scenario(
    Target target,
    Fleet.Mode mode,
    int clients,
    Workload workload,
    ChangePlan plan,
    String store,
    String debounce,
    String fileQuietPeriod,
    List<String> serverJvmOptions,
    List<String> signalboxJvmOptions,
    List<String> baselineJvmOptions,
    Path signalboxJar,
    Path cdsArchive,
    String benchClasspath,
    Path workDir,
    Duration convergeTimeout,
    String loadReportingInterval,
    Duration steady,
    Duration steadyWarmup) {

  /** The seed the simulated clients' load reports are drawn from: every run sends the same traffic. */
  static final long LOAD_SEED = 30;

  /** No load reports, no steady window. */
  public Scenario(Target target, Fleet.Mode mode, int clients, Workload workload, ChangePlan plan, String store,
      String debounce, String fileQuietPeriod, List<String> serverJvmOptions, List<String> signalboxJvmOptions,
      List<String> baselineJvmOptions, Path signalboxJar, Path cdsArchive, String benchClasspath, Path workDir,
      Duration convergeTimeout) {
    this(target, mode, clients, workload, plan, store, debounce, fileQuietPeriod, serverJvmOptions,
        signalboxJvmOptions, baselineJvmOptions, signalboxJar, cdsArchive, benchClasspath, workDir, convergeTimeout,
        null, Duration.ZERO, Duration.ZERO);
  }

  /** No warm-up before the steady window. */
  public Scenario(Target target, Fleet.Mode mode, int clients, Workload workload, ChangePlan plan, String store,
      String debounce, String fileQuietPeriod, List<String> serverJvmOptions, List<String> signalboxJvmOptions,
      List<String> baselineJvmOptions, Path signalboxJar, Path cdsArchive, String benchClasspath, Path workDir,
      Duration convergeTimeout, String loadReportingInterval, Duration steady) {
    this(target, mode, clients, workload, plan, store, debounce, fileQuietPeriod, serverJvmOptions,
        signalboxJvmOptions, baselineJvmOptions, signalboxJar, cdsArchive, benchClasspath, workDir, convergeTimeout,
        loadReportingInterval, steady, Duration.ZERO);
  }

  /** The control plane under test. */
  public enum Target {
    /** Signalbox's jar with its defaults. */
    SIGNALBOX,
    /** The same, started with the class-data-sharing archive {@code cdsArchive}. */
    SIGNALBOX_CDS,
    /** java-control-plane's {@code SimpleCache} with a content hash per type as that type's version. */
    CAREFUL,
    /** java-control-plane's {@code SimpleCache} with one version for the whole snapshot. */
    PLAIN,
    /** Bare grpc-java ({@link FloorAdsServer}): what any Java xDS server pays per stream, not a baseline. */
    FLOOR;

    boolean signalbox() {
      return this == SIGNALBOX || this == SIGNALBOX_CDS;
    }

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  public Scenario {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(plan, "plan");
    if (clients < 1 || clients > 20_000) {
      throw new IllegalArgumentException("clients must be 1..20000, was " + clients);
    }
    serverJvmOptions = List.copyOf(serverJvmOptions);
    signalboxJvmOptions = List.copyOf(signalboxJvmOptions);
    baselineJvmOptions = List.copyOf(baselineJvmOptions);
    Objects.requireNonNull(steady, "steady");
    Objects.requireNonNull(steadyWarmup, "steadyWarmup");
    if (steadyWarmup.isNegative()) {
      throw new IllegalArgumentException("the steady window's warm-up cannot be negative, was " + steadyWarmup);
    }
  }

  boolean loadReports() {
    return loadReportingInterval != null;
  }

  /** The same run with load reports every {@code interval}, or none ({@code null}). */
  Scenario withLoadReports(String interval) {
    return new Scenario(target, mode, clients, workload, plan, store, debounce, fileQuietPeriod, serverJvmOptions,
        signalboxJvmOptions, baselineJvmOptions, signalboxJar, cdsArchive, benchClasspath, workDir, convergeTimeout,
        interval, steady, steadyWarmup);
  }

  /** All JVM options of {@link #target}'s server. */
  List<String> jvmOptions() {
    List<String> all = new java.util.ArrayList<>(serverJvmOptions);
    all.addAll(target.signalbox() ? signalboxJvmOptions : baselineJvmOptions);
    return all;
  }

  Scenario withTarget(Target other) {
    return new Scenario(other, mode, clients, workload, plan, store, debounce, fileQuietPeriod, serverJvmOptions,
        signalboxJvmOptions, baselineJvmOptions, signalboxJar, cdsArchive, benchClasspath, workDir, convergeTimeout,
        loadReportingInterval, steady, steadyWarmup);
  }

  String label() {
    return target.label() + "-" + mode.name().toLowerCase(java.util.Locale.ROOT) + "-" + clients
        + (loadReports() ? "-lrs" : "");
  }
}
