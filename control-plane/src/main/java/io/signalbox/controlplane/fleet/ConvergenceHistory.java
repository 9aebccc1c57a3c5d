package io.signalbox.controlplane.fleet;

import io.signalbox.controlplane.xds.TypeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * How fast the recent epochs reached the fleet: for each of the newest {@link #EPOCHS} epochs, the
 * time from its creation until 50, 90, 99 and 100 % of the connected clients held it (or a later
 * epoch), and how many clients NACKed it. Fed by repeated looks at the fleet; a share, once
 * reached, is kept.
 *
 * <p>Times are exact where the xDS server measured them and an upper bound otherwise. A client
 * holding the current epoch carries its own convergence time ({@code lastConvergence}, taken when
 * its last ACK arrived), so a share reached while its epoch is current is dated to the
 * millisecond, however seldom this is fed. A client known only to hold some epoch between
 * (skipped, or superseded between two looks) is dated at the look that first saw it.
 */
public final class ConvergenceHistory {

  static final int EPOCHS = 20;
  /** The shares charted, in percent of connected clients. */
  static final int[] PERCENTS = {50, 90, 99, 100};

  /** Seconds from an epoch's creation until the share was reached; null while it is not. */
  record Seconds(Double p50, Double p90, Double p99, Double p100) {
    Double at(int index) {
      return switch (index) {
        case 0 -> p50;
        case 1 -> p90;
        case 2 -> p99;
        default -> p100;
      };
    }
  }

  /**
   * @param clients connected clients at the last look
   * @param holding of those, how many held this epoch or a later one
   * @param nacked the most clients seen NACKing this epoch at once
   */
  record EpochConvergence(long epoch, Instant createdAt, int clients, int holding, int nacked, Seconds seconds) {}

  private static final class Tracked {
    final long epoch;
    final Instant createdAt;
    final Double[] reached = new Double[PERCENTS.length];
    int clients;
    int holding;
    int nacked;

    Tracked(long epoch, Instant createdAt) {
      this.epoch = epoch;
      this.createdAt = createdAt;
    }

    boolean complete() {
      return reached[reached.length - 1] != null;
    }

    EpochConvergence view() {
      return new EpochConvergence(epoch, createdAt, clients, holding, nacked,
          new Seconds(reached[0], reached[1], reached[2], reached[3]));
    }
  }

  private final NavigableMap<Long, Tracked> tracked = new TreeMap<>(); // guarded by this

  /**
   * One look at the fleet.
   *
   * @param epochTimes creation times of recent epochs, including {@code current}
   * @param current the newest epoch served
   */
  synchronized void observe(NavigableMap<Long, Instant> epochTimes, long current, List<Fleet.ClientView> views,
      Instant now) {
    for (Map.Entry<Long, Instant> e : epochTimes.headMap(current, true).descendingMap().entrySet()) {
      if (tracked.size() >= EPOCHS && e.getKey() < tracked.firstKey()) {
        break;
      }
      tracked.computeIfAbsent(e.getKey(), epoch -> new Tracked(epoch, e.getValue()));
    }
    while (tracked.size() > EPOCHS) {
      tracked.pollFirstEntry();
    }
    Instant currentCreated = epochTimes.get(current);
    Look look = Look.of(views);
    for (Tracked t : tracked.values()) {
      update(t, current, currentCreated, views, look, now);
    }
  }

  /**
   * What every tracked epoch's counts need from one look, in one pass over the fleet: the held
   * epochs in order (clients holding epoch e or later: a binary search) and how many clients
   * NACKed each epoch. Counting per tracked epoch walked the whole fleet twenty times a look.
   */
  private record Look(long[] held, Map<Long, Integer> nackedBy) {
    static Look of(List<Fleet.ClientView> views) {
      long[] held = new long[views.size()];
      Map<Long, Integer> nackedBy = new java.util.HashMap<>();
      for (int i = 0; i < held.length; i++) {
        Fleet.ClientView v = views.get(i);
        held[i] = v.heldEpoch();
        // A client NACKing one epoch in two types is one client NACKing it.
        java.util.Set<Long> nacked = null;
        for (TypeStatus t : v.client().types().values()) {
          if (t.nack() != null) {
            nacked = nacked == null ? new java.util.HashSet<>() : nacked;
            nacked.add(t.nack().snapshotEpoch());
          }
        }
        if (nacked != null) {
          nacked.forEach(epoch -> nackedBy.merge(epoch, 1, Integer::sum));
        }
      }
      java.util.Arrays.sort(held);
      return new Look(held, nackedBy);
    }

    int holding(long epoch) {
      int lo = 0;
      int hi = held.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (held[mid] < epoch) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return held.length - lo;
    }
  }

  private static void update(Tracked t, long current, Instant currentCreated, List<Fleet.ClientView> views,
      Look look, Instant now) {
    int holding = look.holding(t.epoch);
    int nacked = look.nackedBy().getOrDefault(t.epoch, 0);
    t.clients = views.size();
    t.holding = holding;
    t.nacked = Math.max(t.nacked, nacked);
    if (t.complete() || views.isEmpty()) {
      return;
    }
    double[] times = null;
    for (int i = 0; i < PERCENTS.length; i++) {
      int needed = Math.max(1, (PERCENTS[i] * views.size() + 99) / 100);
      if (t.reached[i] != null || holding < needed) {
        continue;
      }
      if (times == null) {
        times = holdingTimes(t, current, currentCreated, views, now);
      }
      t.reached[i] = times[needed - 1];
    }
  }

  /** Seconds from {@code t}'s creation until each client holding it got there, ascending. */
  private static double[] holdingTimes(Tracked t, long current, Instant currentCreated,
      List<Fleet.ClientView> views, Instant now) {
    double upperBound = seconds(Duration.between(t.createdAt, now));
    double toCurrent = currentCreated == null ? 0 : seconds(Duration.between(t.createdAt, currentCreated));
    double[] times = new double[views.size()];
    int n = 0;
    for (Fleet.ClientView v : views) {
      if (v.heldEpoch() < t.epoch) {
        continue;
      }
      Duration own = v.client().lastConvergence();
      boolean exact = v.client().epoch() == current && own != null && currentCreated != null;
      times[n++] = exact ? Math.max(0, Math.min(upperBound, toCurrent + seconds(own))) : upperBound;
    }
    double[] held = Arrays.copyOf(times, n);
    Arrays.sort(held);
    return held;
  }

  private static double seconds(Duration d) {
    return Math.max(0, d.toMillis()) / 1000.0;
  }

  /** The tracked epochs, newest first. */
  public synchronized List<EpochConvergence> recent() {
    return tracked.descendingMap().values().stream().map(Tracked::view).toList();
  }

  /** For {@code PERCENTS[index]}: the seconds of the newest epoch that reached it, or NaN. */
  synchronized double latest(int index) {
    for (Tracked t : tracked.descendingMap().values()) {
      if (t.reached[index] != null) {
        return t.reached[index];
      }
    }
    return Double.NaN;
  }
}
