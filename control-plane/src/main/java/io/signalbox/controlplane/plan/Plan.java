package io.signalbox.controlplane.plan;

import io.signalbox.validation.Violation;
import java.util.List;
import java.util.Map;

/**
 * What applying some inputs to the running server would do, changing nothing (issue 43,
 * {@code signalbox plan}, {@code POST /api/v1/plan}): the one pipeline's verdict, the guards that
 * would hold the change and what releases them, who would receive each changed resource, the client
 * kinds that would refuse or ignore a changed setting, and the effect on each changed cluster's
 * capacity. The field-level diff is the epoch diff's own model, added by the API beside this.
 *
 * @param servedEpoch the epoch the plan was made against (what {@code status.epoch} said then)
 * @param verdict every violation, as {@code validate} prints it
 * @param holds what would hold the change back, in the order the writer meets them
 * @param recipients per changed resource, the connected clients that would receive it
 * @param clientKinds warnings the planned resources draw from the connected clients' kinds that the
 *     served ones do not ({@code cluster 'web': lbPolicy LEAST_REQUEST: 2 grpc-js clients will NACK it ...})
 * @param capacity per cluster whose endpoints or capacity change
 */
public record Plan(Outcome outcome, long servedEpoch, Verdict verdict, List<Hold> holds, List<Recipients> recipients,
    List<String> clientKinds, List<CapacityEffect> capacity) {

  public Plan {
    holds = List.copyOf(holds);
    recipients = List.copyOf(recipients);
    clientKinds = List.copyOf(clientKinds);
    capacity = List.copyOf(capacity);
  }

  /** Inputs the pipeline refuses: the verdict, and nothing else can be said. */
  static Plan invalid(long servedEpoch, Verdict verdict) {
    return new Plan(Outcome.INVALID, servedEpoch, verdict, List.of(), List.of(), List.of(), List.of());
  }

  /** The exit code a pipeline reads, by the answer's {@code outcome}. */
  public int exitCode() {
    return outcome.exitCode();
  }

  /** What the plan concludes, as {@code signalbox plan} exits (1 is left to a failed request). */
  public enum Outcome {
    NO_CHANGE(0), INVALID(2), CHANGES(4);

    private final int exitCode;

    Outcome(int exitCode) {
      this.exitCode = exitCode;
    }

    public int exitCode() {
      return exitCode;
    }

    static Outcome of(boolean valid, boolean changes) {
      return !valid ? INVALID : changes ? CHANGES : NO_CHANGE;
    }
  }

  /** Every problem as {@code validate} prints it, one per line. */
  public record Verdict(boolean valid, List<String> errors, List<String> warnings) {
    public Verdict {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }

    static Verdict of(List<Violation> errors, List<Violation> warnings) {
      return new Verdict(errors.isEmpty(), lines(errors), lines(warnings));
    }

    private static List<String> lines(List<Violation> violations) {
      return violations.stream().map(Violation::toString).toList();
    }
  }

  /**
   * One guard that would hold the change, as the writer would report it once applied.
   *
   * @param cluster the held cluster; null for the whole config (or a freeze)
   * @param releasedBy what lets it through
   */
  public record Hold(String rule, String cluster, String message, String releasedBy) {}

  /**
   * Who would receive one changed resource: the connected clients that subscribe to it (or hold it),
   * counted per node group and per rollout wave.
   *
   * @param resource {@code TYPE/name}
   * @param change {@code added}, {@code changed} or {@code removed}
   */
  public record Recipients(String resource, String change, int clients, Map<String, Integer> groups,
      Map<String, Integer> waves) {
    public Recipients {
      // Name order, as printed: a copy that keeps it.
      groups = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(groups));
      waves = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(waves));
    }
  }

  /**
   * A cluster's capacity before and after, against the demand its clients' load reports show.
   *
   * @param demandRps requests per second over the demand window; null when reports do not cover it
   * @param dropNow the automatic drop the served epoch carries ({@code 0.0%})
   * @param dropAfter the drop admission would decide for the planned endpoints at this demand
   * @param says the effect in a sentence: {@code this would drop about 50.0% of greeter's calls}
   * @param drainsStarted endpoints the change would start draining
   * @param drainsCutShort endpoints draining now that the change would stop draining (served again or
   *     another state)
   */
  public record CapacityEffect(String cluster, Capacity before, Capacity after, Double demandRps, String dropNow,
      String dropAfter, String says, List<String> drainsStarted, List<String> drainsCutShort) {
    public CapacityEffect {
      drainsStarted = List.copyOf(drainsStarted);
      drainsCutShort = List.copyOf(drainsCutShort);
    }
  }

  /**
   * Eligible capacity: how many endpoints are READY or DEGRADED, and what they serve together.
   *
   * @param rps null when unknown (an eligible endpoint declares none and the cluster has no default)
   * @param unknown why it is unknown, or null
   */
  public record Capacity(int eligible, Long rps, String unknown) {}
}
