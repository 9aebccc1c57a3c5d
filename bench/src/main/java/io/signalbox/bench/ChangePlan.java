package io.signalbox.bench;

/**
 * The one-endpoint changes a load run applies, in this order: {@code coldAfter} changes not
 * measured, {@code cold} measured (the cold phase: the change path's first runs, JIT compilation
 * and class loading included, as a freshly started control plane meets them), {@code warmup} not
 * measured, then {@code warm} measured (the warm phase: what a control plane running for days
 * pays per change). The warm phase starts after {@code coldAfter + cold + warmup} changes.
 *
 * <p>The issue-17 reading of "4 warm-up changes, then 10" and "30 warm-up changes, then 15" in one
 * run is {@code new ChangePlan(4, 10, 16, 15)}.
 */
public record ChangePlan(int coldAfter, int cold, int warmup, int warm) {

  /** Above this many changes the workload runs out of weights that no earlier state had. */
  static final int MAX_TOTAL = 9_000;

  public ChangePlan {
    // Not "this": in a compact constructor the fields are still unset, and it would print zeros.
    String counts = "cold-after " + coldAfter + ", cold " + cold + ", warm-up " + warmup + ", warm " + warm;
    if (coldAfter < 0 || cold < 0 || warmup < 0 || warm < 0) {
      throw new IllegalArgumentException("change counts must not be negative: " + counts);
    }
    if ((long) coldAfter + cold + warmup + warm > MAX_TOTAL) {
      throw new IllegalArgumentException("at most " + MAX_TOTAL + " changes in all, was " + counts);
    }
  }

  /** No cold phase: {@code warmup} changes, then {@code warm} measured ones (what the tool did before). */
  public static ChangePlan warmOnly(int warmup, int warm) {
    return new ChangePlan(0, 0, warmup, warm);
  }

  /** The index of the first change of the warm phase. */
  int warmStart() {
    return coldAfter + cold + warmup;
  }
}
