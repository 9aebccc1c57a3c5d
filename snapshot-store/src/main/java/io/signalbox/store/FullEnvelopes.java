package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NavigableMap;

/**
 * Rebuilds full envelopes from stored checkpoints and deltas, remembering the last one so that
 * loading the next epoch of the same chain (the restart's {@code latest()}, an epoch list's diffs)
 * applies only the deltas after it instead of re-parsing the checkpoint. Thread-safe.
 */
final class FullEnvelopes {

  /** Reads a chain's stored rows. */
  interface Rows {
    /** Stored envelopes of the rows with checkpoint {@code baseEpoch} and epochs in [from, to]. */
    NavigableMap<Long, SnapshotEnvelope> read(long baseEpoch, long fromEpoch, long toEpoch);
  }

  private record Cached(SnapshotEnvelope full, long baseEpoch) {}

  // Guards only the reference: rebuilding runs outside it.
  private final Object lock = new Object();
  private Cached cached;

  /** Remembers a checkpoint just written: the deltas that follow are applied to it. */
  void remember(SnapshotEnvelope checkpoint) {
    synchronized (lock) {
      cached = new Cached(checkpoint, checkpoint.getEpoch());
    }
  }

  /** Forgets everything: the rows it was rebuilt from may be gone. */
  void forget() {
    synchronized (lock) {
      cached = null;
    }
  }

  /** The full envelope of {@code epoch}, whose row's checkpoint is {@code baseEpoch}. */
  SnapshotEnvelope load(long epoch, long baseEpoch, Rows rows) {
    Cached start;
    synchronized (lock) {
      start = cached;
    }
    if (start != null && start.full().getEpoch() == epoch) {
      return start.full();
    }
    boolean fromCache = start != null && start.baseEpoch() == baseEpoch && start.full().getEpoch() < epoch;
    SnapshotEnvelope full = fromCache ? rebuild(epoch, baseEpoch, start.full(), rows) : null;
    if (full == null) {
      full = rebuild(epoch, baseEpoch, null, rows);
    }
    if (full == null) {
      throw new IllegalStateException("epoch " + epoch + ": a row of its chain from checkpoint " + baseEpoch
          + " is missing");
    }
    synchronized (lock) {
      cached = new Cached(full, baseEpoch);
    }
    return full;
  }

  /** Null when the chain does not lead back to {@code from} (or to the checkpoint, if from is null). */
  private static SnapshotEnvelope rebuild(long epoch, long baseEpoch, SnapshotEnvelope from, Rows rows) {
    NavigableMap<Long, SnapshotEnvelope> stored =
        rows.read(baseEpoch, from == null ? baseEpoch : from.getEpoch() + 1, epoch);
    Deque<SnapshotEnvelope> deltas = new ArrayDeque<>();
    long at = epoch;
    SnapshotEnvelope checkpoint = from;
    while (true) {
      SnapshotEnvelope row = stored.get(at);
      if (row == null) {
        if (from == null || at != from.getEpoch()) {
          return null;
        }
        break;
      }
      if (!row.getDelta()) {
        checkpoint = row;
        break;
      }
      deltas.push(row);
      at = row.getParentEpoch();
    }
    if (deltas.isEmpty()) {
      // A checkpoint is returned as stored, so envelopes written before deltas existed load unchanged.
      return checkpoint;
    }
    DeltaReplay replay = new DeltaReplay(checkpoint);
    deltas.forEach(replay::apply);
    return replay.toEnvelope();
  }
}
