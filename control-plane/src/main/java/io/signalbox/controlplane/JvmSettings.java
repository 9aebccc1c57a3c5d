package io.signalbox.controlplane;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The JVM options Signalbox is measured and shipped with ({@code deploy/Dockerfile}, the README's
 * run command, the load tool's Signalbox servers), and which collector this JVM actually runs.
 *
 * <p>The parallel collector, not the JVM's default G1: every change rewrites a little state in
 * each of thousands of long-lived streams, and G1 pays for each such store twice, in concurrent
 * refinement threads and in young pauses that shrink the young generation until they meet its
 * pause goal (about 90 MB at 5,000 clients, one collection a second). The parallel collector
 * scans those cards once per young collection instead: at 5,000 clients a change cost 2.4× less
 * server CPU and 0.4–0.8× the p99 ({@code docs/benchmarks-history.md}, "Results: issue 17, fourth part").
 * Its young pauses (67–285 ms there) only delay responses, which xDS clients tolerate.
 *
 * <p>The heap's memory touched once, at start, in transparent huge pages where the kernel offers
 * them: the young collections of a 10,000-client connect storm copy hundreds of megabytes of new
 * streams into memory the process had never touched, and on a virtual machine each first touch of
 * a 4 KB page is a fault into the hypervisor. Those pauses took 2.4 s; touched beforehand, in
 * 2 MB pages, 0.5–0.9 s. Huge pages also cost the hypervisor fewer page-table walks afterwards:
 * the warm per-change CPU at 1,000 delta clients, compiler aside, fell by about a quarter. The
 * price is start-up, 2–8 s more at a 4 GB heap. Pre-touch covers the initial heap, so the image
 * starts with the heap at its maximum.
 */
public final class JvmSettings {

  /** What to start Signalbox's JVM with, besides the heap size. */
  public static final List<String> RECOMMENDED =
      List.of("-XX:+UseParallelGC", "-XX:+UseTransparentHugePages", "-XX:+AlwaysPreTouch");

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
   * The options of {@link #RECOMMENDED} not in effect in this JVM: not given, or (transparent huge
   * pages) given to a kernel that has none.
   */
  public static List<String> notInEffect() {
    return notInEffect(JvmSettings::flag);
  }

  static List<String> notInEffect(Function<String, String> flag) {
    // Every recommended option is a -XX:+Name switch.
    return RECOMMENDED.stream().filter(option -> !"true".equals(flag.apply(option.substring("-XX:+".length()))))
        .toList();
  }

  /**
   * One line for the log at start when the heap is pre-touched but may still grow: only the initial
   * heap is touched at start, and memory the heap grows into later is touched inside the young
   * collection that grows it, in the middle of serving. With 1,000 delta clients, started with
   * {@code -Xms1g -Xmx4g}, one such growth cost 104 of the 892 CPU samples of fifteen warm changes
   * ({@code docs/benchmarks-history.md}, "Results: issue 17, eighth part").
   *
   * @param preTouch whether {@code -XX:+AlwaysPreTouch} is in effect
   * @param initial the initial heap, bytes ({@code InitialHeapSize})
   * @param max the maximum heap, bytes ({@code MaxHeapSize})
   */
  public static Optional<String> heapAdvice(boolean preTouch, long initial, long max) {
    if (!preTouch || initial >= max) {
      return Optional.empty();
    }
    return Optional.of("the heap starts at " + (initial >> 20) + " MB and may grow to " + (max >> 20)
        + " MB: -XX:+AlwaysPreTouch touches only the initial heap, and memory added later is touched"
        + " inside the collection that grows it; start with -Xms equal to -Xmx (docs/deploy.md, \"JVM options\")");
  }

  /** {@link #heapAdvice(boolean, long, long)} for this JVM. */
  public static Optional<String> heapAdvice() {
    String initial = flag("InitialHeapSize");
    String max = flag("MaxHeapSize");
    if (initial == null || max == null) {
      return Optional.empty();
    }
    return heapAdvice("true".equals(flag("AlwaysPreTouch")), Long.parseLong(initial), Long.parseLong(max));
  }

  private static String flag(String name) {
    try {
      return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
    } catch (IllegalArgumentException e) {
      return null; // not a flag of this JVM
    }
  }

  /**
   * One line for the log at start when some of {@link #RECOMMENDED} is not in effect: an operator
   * who starts the jar with plain {@code java -jar} gets the JVM's defaults.
   *
   * @param collector the collector this JVM runs ({@link #collector()})
   */
  public static Optional<String> advice(List<String> notInEffect, String collector) {
    if (notInEffect.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("running with the " + collector + " garbage collector and without "
        + String.join(" ", notInEffect) + "; Signalbox is measured and shipped with " + String.join(" ", RECOMMENDED)
        + ": less CPU per change with thousands of clients, shorter pauses when they all connect "
        + "(docs/deploy.md, \"JVM options\")");
  }
}
