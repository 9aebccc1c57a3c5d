package io.signalbox.controlplane;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;

/**
 * The JVM options Signalbox is measured and shipped with ({@code deploy/Dockerfile}, the README's
 * run command, the load tool's Signalbox servers), and which collector this JVM actually runs.
 *
 * <p>The parallel collector, not the JVM's default G1: every change rewrites a little state in
 * each of thousands of long-lived streams, and G1 pays for each such store twice, in concurrent
 * refinement threads and in young pauses that shrink the young generation until they meet its
 * pause goal (about 90 MB at 5,000 clients, one collection a second). The parallel collector
 * scans those cards once per young collection instead: at 5,000 clients a change cost 2.4× less
 * server CPU and 0.4–0.8× the p99 ({@code docs/benchmarks.md}, "Results: issue 17, fourth part").
 * Its young pauses (67–285 ms there; seconds in a 10,000-client connect storm, when all that the
 * new streams allocate is live) only delay responses, which xDS clients tolerate.
 */
public final class JvmSettings {

  /** What to start Signalbox's JVM with, besides the heap size. */
  public static final List<String> RECOMMENDED = List.of("-XX:+UseParallelGC");

  private JvmSettings() {}

  /** The collector this JVM runs, by the names of its collector beans: "parallel", "G1", .... */
  public static String collector() {
    return collector(ManagementFactory.getGarbageCollectorMXBeans().stream()
        .map(GarbageCollectorMXBean::getName).toList());
  }

  static String collector(List<String> beanNames) {
    for (String name : beanNames) {
      if (name.startsWith("PS ")) {
        return "parallel";
      }
      if (name.startsWith("G1 ")) {
        return "G1";
      }
      if (name.equals("Copy") || name.equals("MarkSweepCompact")) {
        return "serial";
      }
      if (name.startsWith("ZGC")) {
        return "ZGC";
      }
      if (name.startsWith("Shenandoah")) {
        return "Shenandoah";
      }
    }
    return String.join(", ", beanNames);
  }

  /**
   * One line for the log at start when this JVM runs another collector than {@link #RECOMMENDED}'s:
   * an operator who starts the jar with plain {@code java -jar} gets the JVM's default.
   */
  public static Optional<String> advice(String collector) {
    if (collector.equals("parallel")) {
      return Optional.empty();
    }
    return Optional.of("running with the " + collector + " garbage collector; Signalbox is measured and shipped with "
        + String.join(" ", RECOMMENDED) + ", which costs less CPU per change with thousands of clients "
        + "(docs/deploy.md, \"JVM options\")");
  }
}
