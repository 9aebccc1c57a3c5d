package io.signalbox.validation;

import io.signalbox.model.AdmissionSpec;
import io.signalbox.model.CapacitySpec;
import io.signalbox.model.ClusterSpec;
import java.time.Duration;
import java.util.Optional;

/**
 * Capacity and automatic shedding (issue 31, docs/admission-design.md): the one home of their
 * ranges. Endpoint files, the registry, the EndpointSlice annotation, the config file and
 * {@code signalbox validate} all call these, so each refuses a value with the same words.
 */
public final class AdmissionRules {

  /**
   * A capacity in requests per second. At least 1: an endpoint that can serve nothing is drained,
   * not declared. At most 1,000,000: far above what one endpoint serves, low enough that a sum over
   * a cluster of thousands of endpoints stays exact in a {@code long} and a double.
   */
  public static final int MIN_RPS = 1;
  public static final int MAX_RPS = 1_000_000;
  /** What a capacity must be, as messages and API descriptions say it. */
  public static final String RPS_RANGE = "an integer from " + MIN_RPS + " to " + MAX_RPS;

  /**
   * Above 1.0 lets demand run past the declared capacity: capacities are often a conservative
   * benchmark figure. Twice that is the bound: beyond it the declared figure is what is wrong.
   */
  public static final double MAX_UTILIZATION = 2.0;
  public static final String UTILIZATION_RANGE = "a number in (0, " + MAX_UTILIZATION + "]";
  public static final int MIN_STEP = 1;
  public static final int MAX_STEP = 100;
  /** Load reports arrive once per interval (seconds); a shorter window could not see one. */
  public static final Duration MIN_WINDOW = Duration.ofSeconds(1);

  private AdmissionRules() {}

  /** Why {@code rps} is no capacity ({@code "must be an integer from 1 to 1000000, was 0"}), or empty. */
  public static Optional<String> rpsProblem(long rps) {
    return rps >= MIN_RPS && rps <= MAX_RPS ? Optional.empty()
        : Optional.of("must be " + RPS_RANGE + ", was " + rps);
  }

  /** The outcome of reading a capacity written as text (an annotation's value). */
  public sealed interface Rps {}

  public record Declared(int rps) implements Rps {}

  /** @param problem as {@link #rpsProblem} words it */
  public record Refused(String problem) implements Rps {}

  /** A capacity written as text, e.g. the annotation {@code signalbox.io/capacity-rps: "100"}. */
  public static Rps parseRps(String text) {
    String value = text == null ? "" : text.strip();
    if (!value.matches("-?[0-9]{1,18}")) {
      return new Refused("must be " + RPS_RANGE + ", was " + Findings.quote(text));
    }
    long rps = Long.parseLong(value);
    Optional<String> problem = rpsProblem(rps);
    return problem.isPresent() ? new Refused(problem.get()) : new Declared((int) rps);
  }

  /** An endpoint's or a cluster's {@code capacity}, reported at {@code path: capacity.rps}. */
  static void checkCapacity(String src, String path, CapacitySpec capacity, Findings f) {
    if (capacity == null) {
      return;
    }
    String at = Labels.field(path, "capacity.rps");
    if (capacity.rps() == null) {
      f.error(Findings.REQUIRED, src, at, "is required: " + RPS_RANGE);
      return;
    }
    rpsProblem(capacity.rps()).ifPresent(problem -> f.error(Findings.RANGE, src, at, problem));
  }

  /** A declared cluster's {@code capacity} and {@code admission} (after {@code clusterDefaults}). */
  static void checkCluster(String src, String label, ClusterSpec c, Findings f) {
    checkCapacity(src, label, c.admission().capacity(), f);
    AdmissionSpec admission = c.admission().admission();
    if (admission == null) {
      return;
    }
    Double utilization = admission.maxUtilization();
    if (utilization != null && !(utilization > 0 && utilization <= MAX_UTILIZATION)) {
      f.error(Findings.RANGE, src, Labels.field(label, "admission.maxUtilization"),
          "must be " + UTILIZATION_RANGE + ", was " + utilization);
    }
    f.range(src, Labels.field(label, "admission.step"), admission.step(), MIN_STEP, MAX_STEP);
    Duration window = admission.window();
    if (window != null && window.compareTo(MIN_WINDOW) < 0) {
      f.error(Findings.RANGE, src, Labels.field(label, "admission.window"),
          "must be >= " + Findings.format(MIN_WINDOW) + ", was " + Findings.format(window));
    }
    if (!c.reportsLoad()) {
      // Without reports there is no demand to compare with capacity: the cluster would look
      // admitted forever while it is overloaded, which is worse than saying so now.
      f.error("admission.load-reporting", src, Labels.field(label, "admission"),
          "cluster '" + c.name() + "' declares admission but not loadReporting: true; automatic shedding is "
              + "computed from the clients' load reports");
    }
  }
}
