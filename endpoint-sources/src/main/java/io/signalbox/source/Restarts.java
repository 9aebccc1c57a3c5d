package io.signalbox.source;

import java.time.Duration;
import java.util.Objects;

/**
 * How a source's thread is restarted after an exception or an Error escaped it: after {@code
 * first}, doubling with each failure in a row up to {@code max}. A source whose thread died used to
 * stay silent while its status said FRESH (issue 29: a watcher killed by {@code OutOfMemoryError}
 * never saw another edit); a supervised one reports FAILED with the reason and comes back.
 */
public record Restarts(Duration first, Duration max) {

  public static final Restarts DEFAULT = new Restarts(Duration.ofSeconds(1), Duration.ofSeconds(30));

  public Restarts {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("bad restart delays: first " + first + ", max " + max);
    }
  }

  /** The delay before the restart that follows {@code failures} failures in a row (1 or more). */
  public Duration after(int failures) {
    Duration delay = first;
    for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }

  /**
   * Whether a supervisor may catch {@code failure} and restart: everything but a VM error other
   * than running out of memory or stack (an oversized read or a deeply nested parse is a fault of
   * its input, and what it took is gone once the stack unwinds; an InternalError is not ours to mend).
   */
  public static boolean restartable(Throwable failure) {
    return !(failure instanceof VirtualMachineError) || failure instanceof OutOfMemoryError
        || failure instanceof StackOverflowError;
  }

  /** What a source reports while it restarts. */
  public static String reason(Throwable failure, Duration delay) {
    return "the source's thread failed (" + failure + "); restarting in " + delay.toMillis() + " ms";
  }
}
