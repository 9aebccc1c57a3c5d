package io.signalbox.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What one load run measured: once per run (start-up, connect storm, heap), and per measured phase
 * of changes ({@link ChangePlan}: cold, warm).
 *
 * @param startMillis from starting the server process until it serves (Signalbox: {@code /readyz} and
 *     an epoch; the baselines: the xDS port accepts connections, which they open after their first
 *     snapshot)
 * @param startCpuMillis the server's CPU time (all threads) until then
 * @param stormMillis from opening the first stream until the last client held every resource
 * @param notReady clients that never held every resource within the timeout
 * @param heapPerClientBytes (heap after GC with the fleet connected − heap after GC with none) / clients
 * @param errors streams that failed (each is retried a bounded number of times)
 * @param phases the measured phases in the order they ran; a phase of no changes is left out
 * @param steady the window with nothing changing after the phases ({@code --steady}), or null
 * @param loadReports whether the clients sent load reports
 */
public record RunResult(
    Scenario.Target target,
    Fleet.Mode mode,
    int clients,
    double startMillis,
    double startCpuMillis,
    double stormMillis,
    long notReady,
    long heapPerClientBytes,
    long errors,
    List<Phase> phases,
    Steady steady,
    boolean loadReports) {

  public RunResult {
    phases = List.copyOf(phases);
  }

  /** Without a steady window or load reports. */
  public RunResult(Scenario.Target target, Fleet.Mode mode, int clients, double startMillis, double startCpuMillis,
      double stormMillis, long notReady, long heapPerClientBytes, long errors, List<Phase> phases) {
    this(target, mode, clients, startMillis, startCpuMillis, stormMillis, notReady, heapPerClientBytes, errors, phases,
        null, false);
  }

  /**
   * The connected fleet watched with nothing changing: what the server spends on clients that only
   * hold their streams (and, with load reports, report every interval).
   *
   * @param windowMillis the window's length, by this JVM's clock
   * @param cpuMillis the server's user+system CPU over the window
   * @param jitCpuMillis the part of it spent by the JIT compiler
   * @param databaseCpuMillis the embedded PostgreSQL's over the window (0 with {@code --store memory})
   * @param loadToolCpuMillis the load tool's own
   * @param heapBytes the server's heap in use after a full GC at the window's end
   * @param reportsSent load reports the fleet sent in the window
   * @param reportsSentInAll load reports the fleet sent over the run, until the scrape below
   * @param reportsUsed Signalbox's {@code signalbox_lrs_reports} over the run, read by one {@code /metrics}
   *     scrape after the window and the heap (-1 if unread)
   * @param reportsRefused Signalbox's {@code signalbox_lrs_refused} (entries left out) from the same scrape
   * @param reportErrors LRS streams that failed, over the whole run
   * @param loadAverage the machine's 1, 5 and 15 minute load averages at the window's end ({@code /proc/loadavg})
   * @param scrapeMillis how long that {@code /metrics} scrape took (it reads every cluster's load figures)
   * @param scrapeCpuMillis the server's and its PostgreSQL's CPU during it
   */
  public record Steady(double windowMillis, double cpuMillis, double jitCpuMillis, double databaseCpuMillis,
      double loadToolCpuMillis, long heapBytes, long reportsSent, long reportsSentInAll, long reportsUsed,
      long reportsRefused, long reportErrors, String loadAverage, double scrapeMillis, long scrapeCpuMillis) {

    /** The server's CPU over the window as a percentage of one core. */
    public double cpuPercentOfCore() {
      return 100.0 * cpuMillis / windowMillis;
    }

    /** The same with its embedded PostgreSQL. */
    public double cpuWithDatabasePercentOfCore() {
      return 100.0 * (cpuMillis + databaseCpuMillis) / windowMillis;
    }
  }

  /** The phase called {@code name}, if it was measured. */
  public Optional<Phase> phase(String name) {
    return phases.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** LRS streams that failed over the run; 0 without a steady window (only it counts them). */
  public long reportErrors() {
    return steady == null ? 0 : steady.reportErrors();
  }

  /** Client-changes that did not converge, over every phase. */
  public long unconverged() {
    return phases.stream().mapToLong(Phase::unconverged).sum();
  }

  /**
   * One measured run of changes.
   *
   * @param cpuMillisPerChange server user+system CPU over the phase / its changes
   * @param jitCpuMillisPerChange the part of {@code cpuMillisPerChange} spent by the JIT compiler
   * @param loadToolCpuMillisPerChange the same for the load tool's own JVM (the simulated fleet)
   * @param serializations Signalbox's {@code resourceSerializations} growth over the phase; -1 for the baselines
   */
  /** The {@code p}th percentile (nearest rank) of {@code sorted}; NaN when it is empty. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
  }

  public record Phase(
      String name,
      List<ChangeResult> changes,
      double cpuMillisPerChange,
      double jitCpuMillisPerChange,
      double databaseCpuMillisPerChange,
      double loadToolCpuMillisPerChange,
      long serializations) {

    public Phase {
      changes = List.copyOf(changes);
    }

    /** Every client's latency over every change, sorted. */
    public double[] latencies() {
      return changes.stream().flatMapToDouble(c -> Arrays.stream(c.latencyMillis())).sorted().toArray();
    }

    public double latencyPercentile(double p) {
      return percentile(latencies(), p);
    }

    public double bytesPerChangePerClient() {
      return changes.stream().flatMapToLong(c -> Arrays.stream(c.bytesPerClient())).average().orElse(Double.NaN);
    }

    public double responsesPerChangePerClient() {
      return changes.stream().flatMapToLong(c -> Arrays.stream(c.responsesPerClient())).average().orElse(Double.NaN);
    }

    public long unconverged() {
      return changes.stream().mapToLong(ChangeResult::unconverged).sum();
    }
  }

  /**
   * One change as the fleet saw it.
   *
   * @param latencyMillis per client that converged: from the rename to holding the new content
   * @param unconverged clients that did not hold it within the timeout
   * @param bytesPerClient per client: serialized size of every response received for this change
   * @param responsesPerClient per client: responses received for this change
   * @param resourcesPerClient per client: resources in those responses
   * @param edsResponses EDS responses received by the whole fleet for this change
   */
  public record ChangeResult(
      int index,
      double[] latencyMillis,
      long unconverged,
      long[] bytesPerClient,
      long[] responsesPerClient,
      long[] resourcesPerClient,
      long edsResponses) {}
}
