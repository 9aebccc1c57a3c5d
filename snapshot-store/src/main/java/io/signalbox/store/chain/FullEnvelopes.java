package io.signalbox.store.chain;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.NavigableMap;

/**
 * Rebuilds full envelopes from stored full copies and deltas, remembering the last one so that
 * loading the next epoch of the same chain (the restart's {@code latest()}, an epoch list's diffs)
 * applies only the deltas after it instead of re-parsing a full copy. Thread-safe.
 */
public final class FullEnvelopes {

  /** Reads a chain's stored rows. */
  public interface Rows {
    /**
     * The newest row of chain {@code baseEpoch} at or below {@code epoch} that holds a full copy
     * (the base row, or a row a checkpoint added one to), or -1 if none is stored. Only its number:
     * a full copy is megabytes, and a load reads one.
     */
    long nearestFullCopy(long baseEpoch, long epoch);

    /** The full copy that row {@code epoch} holds. */
    SnapshotEnvelope fullCopy(long epoch);

    /** Stored (delta) envelopes of the rows of chain {@code baseEpoch} with epochs in [from, to]. */
    NavigableMap<Long, SnapshotEnvelope> deltas(long baseEpoch, long fromEpoch, long toEpoch);
  }

  private record Cached(SnapshotEnvelope full, long baseEpoch) {
    long epoch() {
      return full.getEpoch();
    }
  }

  // Guards only the reference: rebuilding runs outside it.
  private final Object lock = new Object();
  private Cached cached;

  /**
   * Remembers a full envelope just written, of a row of chain {@code baseEpoch}: the deltas that
   * follow are applied to it. A later envelope of the same chain already remembered is kept.
   */
  public void remember(SnapshotEnvelope full, long baseEpoch) {
    synchronized (lock) {
      if (cached == null || cached.baseEpoch() != baseEpoch || cached.epoch() < full.getEpoch()) {
        cached = new Cached(full, baseEpoch);
      }
    }
  }

  /** Forgets everything: the rows it was rebuilt from may be gone. */
  public void forget() {
    synchronized (lock) {
      cached = null;
    }
  }

  /**
   * The full envelope of {@code epoch}, a row of chain {@code baseEpoch}: its nearest full copy (or
   * the envelope remembered, if it lies between that copy and the epoch) with the deltas after it.
   */
  public SnapshotEnvelope load(long epoch, long baseEpoch, Rows rows) {
    Cached start;
    synchronized (lock) {
      start = cached;
    }
    if (start != null && start.epoch() == epoch) {
      return start.full();
    }
    Deque<SnapshotEnvelope> deltas = new ArrayDeque<>();
    long at = epoch;
    SnapshotEnvelope full;
    while (true) {
      long copy = rows.nearestFullCopy(baseEpoch, at);
      boolean fromCache = start != null && start.baseEpoch() == baseEpoch && copy <= start.epoch() && start.epoch() < at;
      long from = fromCache ? start.epoch() : copy;
      if (from < 0) {
        throw missing(epoch, baseEpoch);
      }
      NavigableMap<Long, SnapshotEnvelope> stored = at > from ? rows.deltas(baseEpoch, from + 1, at) : Collections.emptyNavigableMap();
      while (at > from) {
        SnapshotEnvelope row = stored.get(at);
        if (row == null || !row.getDelta()) {
          throw missing(epoch, baseEpoch);
        }
        deltas.push(row);
        at = row.getParentEpoch();
      }
      if (at == from) {
        full = replay(fromCache ? start.full() : rows.fullCopy(from), deltas);
        break;
      }
      // The parent path passed below the start: two appends raced on one parent, and the start is
      // on the other branch. Look again from where the path went.
    }
    synchronized (lock) {
      cached = new Cached(full, baseEpoch);
    }
    return full;
  }

  private static IllegalStateException missing(long epoch, long baseEpoch) {
    return new IllegalStateException("epoch " + epoch + ": a row of its chain from base " + baseEpoch + " is missing");
  }

  private static SnapshotEnvelope replay(SnapshotEnvelope full, Deque<SnapshotEnvelope> deltas) {
    if (deltas.isEmpty()) {
      // A full copy is returned as stored, so envelopes written before deltas existed load unchanged.
      return full;
    }
    DeltaReplay replay = new DeltaReplay(full);
    deltas.forEach(replay::apply);
    return replay.toEnvelope();
  }
}
