package io.signalbox.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * "Correlated errors": the error rate rose on most localities (or endpoints) of one cluster in the
 * same reporting interval. One backend failing is the outlier detector's business; most of them
 * failing at once points at something they share (a database, a dependency, a bad deploy), and
 * ejecting them one by one would only move the load onto the next failing one, the correlated
 * ejection the load-balancing references warn about. Pure: the caller supplies one interval's
 * counts and decides where the verdict is shown (status, dashboard, metrics and alert rule).
 *
 * <p>The condition, precisely: of the localities (or endpoints) that finished at least
 * {@link #MIN_FINISHED} requests in the interval (the counted ones), at least {@link #MIN_COUNTED}
 * exist, and at least {@link #MIN_SHARE_PERCENT} % of them had more than {@link #ERROR_PERCENT} %
 * of their finished requests errored.
 */
public final class CorrelatedErrors {
  private CorrelatedErrors() {}

  public static final String RULE = "load.correlated-errors";
  /** Fewer places than this cannot show that "most" of them fail together. */
  public static final int MIN_COUNTED = 3;
  public static final int MIN_SHARE_PERCENT = 75;
  /** An error rate above this (strictly) counts as raised. */
  public static final int ERROR_PERCENT = 5;
  /** A place that finished fewer requests says too little either way: one error in two is not a trend. */
  public static final long MIN_FINISHED = 10;

  /** One locality's (or endpoint's) requests that finished in the interval. */
  public record Finished(String name, long succeeded, long errored) {
    public Finished {
      if (succeeded < 0 || errored < 0) {
        throw new IllegalArgumentException("negative count for " + name + ": succeeded " + succeeded
            + ", errored " + errored);
      }
    }

    long total() {
      return succeeded + errored;
    }

    boolean raised() {
      return errored * 100 > ERROR_PERCENT * total();
    }
  }

  /** What the rule says of one cluster's interval. */
  public sealed interface Verdict {
    /** Localities counted (those that finished enough requests) and, of them, those above the rate. */
    int counted();

    List<String> raised();

    String message();
  }

  /** The condition holds: {@code raised} (by name, in the order given) of {@code counted} err at once. */
  public record Correlated(int counted, List<String> raised, String message) implements Verdict {
    public Correlated {
      raised = List.copyOf(raised);
    }
  }

  /** It does not, or too few places finished enough requests to tell; {@code message} says which. */
  public record Uncorrelated(int counted, List<String> raised, String message) implements Verdict {
    public Uncorrelated {
      raised = List.copyOf(raised);
    }
  }

  /**
   * The verdict on one cluster's last interval.
   *
   * @param kind what {@code places} are, as the message names them: "localities" or "endpoints"
   */
  public static Verdict of(String cluster, String kind, List<Finished> places) {
    int counted = 0;
    List<String> raised = new ArrayList<>();
    for (Finished f : places) {
      if (f.total() < MIN_FINISHED) {
        continue;
      }
      counted++;
      if (f.raised()) {
        raised.add(f.name());
      }
    }
    String share = raised.size() + " of " + counted + " " + kind + " reporting at least " + MIN_FINISHED
        + " finished requests";
    if (counted < MIN_COUNTED) {
      return new Uncorrelated(counted, raised, "cluster '" + cluster + "': " + share + " err above "
          + ERROR_PERCENT + " %; fewer than " + MIN_COUNTED + " " + kind + " cannot show correlated errors");
    }
    if (raised.size() * 100L >= (long) MIN_SHARE_PERCENT * counted) {
      return new Correlated(counted, raised, "cluster '" + cluster + "': " + share + " err above "
          + ERROR_PERCENT + " % at once (" + String.join(", ", raised) + "): look for a cause they share before "
          + "ejecting them [" + RULE + "]");
    }
    return new Uncorrelated(counted, raised, "cluster '" + cluster + "': " + share + " err above "
        + ERROR_PERCENT + " %, fewer than " + MIN_SHARE_PERCENT + " %");
  }
}
