package io.signalbox.validation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * When a drained endpoint is safe to remove: the one rule, for the API, the CLI's {@code drain
 * --wait} and the writer's bookkeeping alike. Pure: the caller passes the time and what the fleet
 * said; nothing here reads a clock or a client.
 *
 * <p>Safe means no client will send the endpoint new work (every client holding its cluster ACKed
 * an epoch in which it is DRAINING) and no client still has work on it. The second half is known
 * two ways. A client that reports load (LRS) says so itself: it is idle on the endpoint once a whole
 * reporting interval with nothing issued and nothing in flight there was reported after its ACK
 * (before the ACK it could still pick the endpoint for new work). A client that reports nothing
 * gives no such evidence, and for it the drain's deadline decides, as it did for every client
 * before load reports: a cluster without load reporting keeps exactly the old rule, every client
 * ACKed and the deadline passed. With no client at all there is no evidence either: a client
 * between two ADS streams still balances over its last config.
 */
public final class DrainProgress {

  private DrainProgress() {}

  /**
   * What one client's load reports say about the draining endpoint (its own locality under
   * {@code loadReportingPerEndpoint}, or the whole locality it shares with others, which bounds it).
   */
  public sealed interface ClientLoad permits Idle, InFlight, Silent {}

  /**
   * Every report from {@code since} to {@code reportedAt} showed nothing issued and nothing in
   * flight there.
   */
  public record Idle(Instant since, Instant reportedAt) implements ClientLoad {
    public Idle {
      Objects.requireNonNull(since, "since");
      Objects.requireNonNull(reportedAt, "reportedAt");
    }
  }

  /** Its latest report (at {@code reportedAt}) counted {@code requests} in flight there (or issued some). */
  public record InFlight(long requests, Instant reportedAt) implements ClientLoad {}

  /** It sends no load reports for this cluster, or none recent enough to count. */
  public record Silent() implements ClientLoad {}

  public static final ClientLoad SILENT = new Silent();

  /**
   * One client holding the draining endpoint's cluster.
   *
   * @param acked it ACKed an epoch in which the endpoint is DRAINING (see {@link #holdsDrainingEpoch})
   * @param ackedAt when it last ACKed endpoints; null when unknown. Idle evidence counts only from a
   *     report at or after it.
   */
  public record Holder(String client, boolean acked, Instant ackedAt, ClientLoad load) {
    public Holder {
      Objects.requireNonNull(client, "client");
      Objects.requireNonNull(load, "load");
    }
  }

  /**
   * One drain as it stands.
   *
   * @param drainingEpoch the first epoch of the endpoint's current DRAINING run; null while no
   *     published epoch carries the drain
   * @param reporting whether the cluster asks its clients for load reports; without, every holder
   *     reports nothing and the reason says "no load reporting" instead of naming each client
   * @param interval the load-reporting interval the clients were told
   */
  public record Drain(Long drainingEpoch, List<Holder> holders, Instant deadline, boolean reporting,
      Duration interval, Instant now) {
    public Drain {
      holders = List.copyOf(holders);
      Objects.requireNonNull(deadline, "deadline");
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(now, "now");
    }
  }

  /** Why a drain is safe to remove, or that it is not yet. */
  public enum Basis {
    /** Not safe yet. */
    WAITING,
    /** Every client ACKed and reported itself idle on the endpoint for one interval. */
    IDLE,
    /** Every client ACKed and the deadline passed; some client's work is vouched for by time alone. */
    DEADLINE
  }

  /** A reporting client idle on the endpoint, and for how long its reports vouch for. */
  public record IdleClient(String client, Duration idleFor) {}

  /** A reporting client with work on the endpoint. */
  public record BusyClient(String client, long inFlight) {}

  /**
   * The verdict with its reason (an operator reads it as is) and the clients behind it, each list in
   * the holders' order.
   *
   * @param idle reporting clients that are idle there (for one interval or not yet)
   * @param inFlight reporting clients with work there
   * @param silent clients that report nothing: the deadline decides for them
   */
  public record Verdict(boolean safe, Basis basis, String reason, List<String> acked, List<String> notAcked,
      List<IdleClient> idle, List<BusyClient> inFlight, List<String> silent, boolean deadlinePassed) {
    public Verdict {
      acked = List.copyOf(acked);
      notAcked = List.copyOf(notAcked);
      idle = List.copyOf(idle);
      inFlight = List.copyOf(inFlight);
      silent = List.copyOf(silent);
    }

    public long inFlightTotal() {
      return inFlight.stream().mapToLong(BusyClient::inFlight).sum();
    }
  }

  /**
   * Whether a client whose newest held epoch of endpoints is {@code syncedEpoch} holds the drain
   * that started at {@code drainingEpoch}: the endpoint is DRAINING in every epoch of the run, so any
   * epoch at or after its first will do.
   */
  public static boolean holdsDrainingEpoch(long syncedEpoch, long drainingEpoch) {
    return syncedEpoch >= drainingEpoch;
  }

  public static Verdict judge(Drain d) {
    List<String> acked = new ArrayList<>();
    List<String> notAcked = new ArrayList<>();
    List<IdleClient> idle = new ArrayList<>();
    List<BusyClient> busy = new ArrayList<>();
    List<String> silent = new ArrayList<>();
    List<String> notLongEnough = new ArrayList<>();
    for (Holder h : d.holders()) {
      (h.acked() ? acked : notAcked).add(h.client());
      if (h.load() instanceof InFlight f) {
        busy.add(new BusyClient(h.client(), Math.max(0, f.requests())));
      } else if (h.load() instanceof Idle i) {
        Duration idleFor = positive(Duration.between(i.since(), i.reportedAt()));
        idle.add(new IdleClient(h.client(), idleFor));
        boolean afterAck = h.ackedAt() == null || !i.reportedAt().isBefore(h.ackedAt());
        if (!afterAck || idleFor.compareTo(d.interval()) < 0) {
          notLongEnough.add(h.client() + " " + (afterAck ? "idle " + human(idleFor) : "no report since its ACK"));
        }
      } else {
        silent.add(h.client());
      }
    }
    boolean deadlinePassed = !d.now().isBefore(d.deadline());
    String left = human(Duration.between(d.now(), d.deadline()));
    String reason;
    Basis basis = Basis.WAITING;
    if (d.drainingEpoch() == null) {
      reason = "no published epoch drains it yet";
    } else if (!notAcked.isEmpty()) {
      reason = notAcked.size() + " of " + d.holders().size() + " client" + plural(d.holders().size())
          + " have not ACKed epoch " + d.drainingEpoch() + " or later: " + names(notAcked);
    } else if (deadlinePassed) {
      basis = Basis.DEADLINE;
      reason = "deadline passed" + deadlineDetail(d, busy, notLongEnough, silent);
    } else if (!busy.isEmpty()) {
      reason = inFlight(busy) + "; deadline in " + left;
    } else if (!notLongEnough.isEmpty()) {
      reason = "not yet idle for one interval (" + human(d.interval()) + "): " + names(notLongEnough);
    } else if (!silent.isEmpty()) {
      reason = silent(d, silent) + ": the deadline decides, in " + left;
    } else if (d.holders().isEmpty()) {
      reason = "no client holds the cluster: the deadline decides, in " + left;
    } else {
      basis = Basis.IDLE;
      reason = "every client ACKed and every reporting client idle for one interval (" + human(d.interval()) + ")";
    }
    return new Verdict(basis != Basis.WAITING, basis, reason, acked, notAcked, idle, busy, silent, deadlinePassed);
  }

  /** What the deadline stood in for: the work it did not wait for, or the clients it vouched for. */
  private static String deadlineDetail(Drain d, List<BusyClient> busy, List<String> notLongEnough,
      List<String> silent) {
    List<String> parts = new ArrayList<>();
    if (!busy.isEmpty()) {
      parts.add("still " + inFlight(busy));
    }
    if (!notLongEnough.isEmpty()) {
      parts.add("not yet idle for one interval: " + names(notLongEnough));
    }
    if (!silent.isEmpty()) {
      parts.add(silent(d, silent));
    }
    if (d.holders().isEmpty()) {
      parts.add("no client holds the cluster");
    }
    return parts.isEmpty() ? "" : "; " + String.join("; ", parts);
  }

  /** {@code in flight: 3 (node-a 1, node-b 2)}. */
  private static String inFlight(List<BusyClient> busy) {
    return "in flight: " + busy.stream().mapToLong(BusyClient::inFlight).sum() + " ("
        + names(busy.stream().map(b -> b.client() + " " + b.inFlight()).toList()) + ")";
  }

  private static String silent(Drain d, List<String> silent) {
    if (!d.reporting()) {
      return "no load reporting";
    }
    return silent.size() + (silent.size() == 1 ? " client reports" : " clients report") + " nothing ("
        + names(silent) + ")";
  }

  /** At most {@link #NAMED} names, then how many more: a reason stays one readable line in a fleet of thousands. */
  private static String names(List<String> names) {
    if (names.size() <= NAMED) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, NAMED)) + " and " + (names.size() - NAMED) + " more";
  }

  private static final int NAMED = 5;

  private static Duration positive(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  private static String plural(int n) {
    return n == 1 ? "" : "s";
  }

  /** {@code 450ms}, {@code 1.5s}, {@code 12s}, {@code 2m5s}: what an operator reads in a reason. */
  static String human(Duration d) {
    long ms = Math.max(0, d.toMillis());
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 10_000 && ms % 1000 != 0) {
      return (ms / 1000) + "." + (ms % 1000) / 100 + "s";
    }
    long s = ms / 1000;
    if (s < 60) {
      return s + "s";
    }
    return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
  }
}
