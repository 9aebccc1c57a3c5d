package io.signalbox.bench;

import java.util.Arrays;
import java.util.List;

/**
 * What one load run measured.
 *
 * @param stormMillis from opening the first stream until the last client held every resource
 * @param notReady clients that never held every resource within the timeout
 * @param heapPerClientBytes (heap after GC with the fleet connected − heap after GC with none) / clients
 * @param cpuMillisPerChange server user+system CPU over all changes / changes
 * @param jitCpuMillisPerChange the part of {@code cpuMillisPerChange} spent by the JIT compiler
 * @param loadToolCpuMillisPerChange the same for the load tool's own JVM (the simulated fleet)
 * @param errors streams that failed (each is retried a bounded number of times)
 * @param serializations Signalbox's {@code resourceSerializations} growth over the changes; -1 for plain
 */
public record RunResult(
    Scenario.Target target,
    Fleet.Mode mode,
    int clients,
    double stormMillis,
    long notReady,
    long heapPerClientBytes,
    double cpuMillisPerChange,
    double jitCpuMillisPerChange,
    double loadToolCpuMillisPerChange,
    long errors,
    long serializations,
    List<ChangeResult> changes) {

  public RunResult {
    changes = List.copyOf(changes);
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

  /** Every client's latency over every change, sorted. */
  public double[] latencies() {
    return changes.stream().flatMapToDouble(c -> Arrays.stream(c.latencyMillis())).sorted().toArray();
  }

  public double latencyPercentile(double p) {
    double[] sorted = latencies();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
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
