package io.signalbox.controlplane.admission;

import java.time.Duration;
import java.time.Instant;

/**
 * The automatic drop of one cluster (category {@code signalbox_overload}), decided once per
 * load-report interval from what the reports say (docs/admission-design.md). Pure: the caller gives
 * the time, the readings and the previous state, and keeps the state it gets back.
 *
 * <ul>
 *   <li><b>Raise at once</b> to {@code d* = max(0, 1 − limit / demand)}, rounded up to 0.1 %, when
 *       {@code d* > d}: an overload costs more the longer it lasts, and following demand up cannot
 *       flap.
 *   <li><b>Lower in steps</b>: when {@code d*} is more than {@link #BAND_PER_MILLION} below
 *       {@code d} (or is 0: nothing left to shed), to {@code max(d*, d − step)}, and only once a
 *       window has passed since the drop last moved either way. So a demand sitting at the limit
 *       does not toggle the drop, and the drop swings back and forth at most once per window.
 *   <li><b>No evidence</b> (no client reported within two intervals): the drop holds one window
 *       from the last fresh report, then steps down per window to 0; it never rises without
 *       reports.
 *   <li><b>Capacity unknown</b> (an eligible endpoint without a capacity anywhere): no drop at all,
 *       at once, since a limit nobody declared cannot be enforced. <b>No eligible endpoint</b>: the
 *       drop holds; dropping everything would outlast the outage by the whole step-down.
 * </ul>
 */
public final class AdmissionController {

  public static final int MILLION = 1_000_000;
  /** d* is rounded up to this (0.1 %): a drop moves by visible amounts, and never admits over the limit. */
  public static final int ROUNDING_PER_MILLION = 1_000;
  /** Within this much (5 points) below the drop in force, a lower target changes nothing. */
  public static final int BAND_PER_MILLION = 50_000;

  private AdmissionController() {}

  /**
   * A cluster's admission settings (ClusterSpec.Admission's effective values).
   *
   * @param stepPerMillion how far the drop may fall per window
   */
  public record Settings(double maxUtilization, int stepPerMillion, Duration window) {}

  /**
   * What the load reports said at {@code now}.
   *
   * @param demandRps requests per second the clients issued, the ones {@code signalbox_overload}
   *     dropped included (a dropped call is not issued in LRS: counting only issued calls would let
   *     the drop hide the demand it sheds)
   * @param fresh whether some client reported the cluster within two intervals; when false {@code
   *     demandRps} is not used
   */
  public record Reading(EligibleCapacity capacity, double demandRps, boolean fresh) {}

  /**
   * The drop in force and what the rules need of its history.
   *
   * @param lastMove when the drop last changed (raise or lower); lowering waits a window after it
   * @param lastEvidence the last time reports were fresh
   */
  public record State(int perMillion, Instant lastMove, Instant lastEvidence) {
    /** What a new leader starts from: the drop the last published epoch carries, as if just set. */
    public static State inherited(int perMillion, Instant now) {
      return new State(perMillion, now, now);
    }
  }

  /** Which rule decided. */
  public enum Rule { RAISED, LOWERED, HELD, CLEARED }

  /**
   * The new drop and its cause in words (eligible capacity, demand, limit, drop), for provenance,
   * {@code why} and the dashboard.
   */
  public record Decision(State state, Rule rule, String cause) {
    public int perMillion() {
      return state.perMillion();
    }

    public boolean changed(State before) {
      return before.perMillion() != state.perMillion();
    }
  }

  public static Decision decide(Settings s, Reading r, State before, Instant now) {
    int d = before.perMillion();
    if (r.capacity() instanceof EligibleCapacity.Unknown u) {
      State next = d == 0 ? before : new State(0, now, before.lastEvidence());
      return new Decision(next, d == 0 ? Rule.HELD : Rule.CLEARED, u.reason() + "; never shed automatically");
    }
    EligibleCapacity.Known known = (EligibleCapacity.Known) r.capacity();
    double limit = s.maxUtilization() * known.rps();
    String capacity = "eligible capacity " + known.rps() + " rps (" + known.endpoints() + " endpoints), limit "
        + rps(limit) + " rps";
    boolean windowSinceMove = !now.isBefore(before.lastMove().plus(s.window()));
    if (!r.fresh()) {
      boolean held = now.isBefore(before.lastEvidence().plus(s.window())) || !windowSinceMove || d == 0;
      String why = capacity + "; no fresh load reports since " + before.lastEvidence();
      return held ? new Decision(before, Rule.HELD, why + ", drop " + percent(d) + " held")
          : lowered(before, Math.max(0, d - s.stepPerMillion()), now, before.lastEvidence(), why);
    }
    State seen = new State(d, before.lastMove(), now);
    String why = capacity + ", demand " + rps(r.demandRps()) + " rps";
    if (known.rps() == 0) {
      return new Decision(seen, Rule.HELD, why + "; no eligible endpoint, drop " + percent(d) + " held");
    }
    int target = target(limit, r.demandRps());
    if (target > d) {
      return new Decision(new State(target, now, now), Rule.RAISED, why + ": drop raised to " + percent(target));
    }
    if ((target < d - BAND_PER_MILLION || (target == 0 && d > 0)) && windowSinceMove) {
      return lowered(before, Math.max(target, d - s.stepPerMillion()), now, now, why);
    }
    return new Decision(seen, Rule.HELD, why + ": drop " + percent(d) + " held (target " + percent(target) + ")");
  }

  /** {@code max(0, 1 − limit / demand)} in parts per million, rounded up to 0.1 %. */
  public static int target(double limit, double demandRps) {
    if (demandRps <= limit || demandRps <= 0) {
      return 0;
    }
    double share = 1 - limit / demandRps;
    // The small slack keeps an exact share (0.5) from rounding up a step on a float's last bit.
    long steps = (long) Math.ceil(share * (MILLION / ROUNDING_PER_MILLION) - 1e-9);
    return (int) Math.min(MILLION, Math.max(0, steps) * ROUNDING_PER_MILLION);
  }

  private static Decision lowered(State before, int to, Instant now, Instant evidence, String why) {
    return new Decision(new State(to, now, evidence), to == 0 ? Rule.CLEARED : Rule.LOWERED,
        why + ": drop lowered from " + percent(before.perMillion()) + " to " + percent(to));
  }

  public static String percent(int perMillion) {
    return String.format(java.util.Locale.ROOT, "%.1f%%", perMillion / 10_000.0);
  }

  private static String rps(double v) {
    return String.format(java.util.Locale.ROOT, "%.1f", v);
  }
}
