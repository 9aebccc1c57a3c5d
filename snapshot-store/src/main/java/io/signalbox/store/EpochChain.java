package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * How epochs are stored: a full checkpoint, then deltas each written on the epoch before it, until
 * the chain holds {@link #MAX_DEPTH} deltas and the next epoch is a checkpoint again. Both stores
 * choose and prune through here, so they behave alike for callers.
 */
final class EpochChain {

  /**
   * Deltas after a checkpoint before the next full write. Loading an epoch parses its checkpoint
   * and applies at most this many deltas, so this bounds the cost of a load and of a restart, and
   * how many older rows retention keeps for a kept epoch. A full write at 10,000 clusters × 10
   * endpoints costs ~0.3 s on a busy 2-core machine ({@code StoreBenchmarks.appendFull}), so one
   * in 65 epochs adds ~5 ms to the average append; a one-endpoint delta is a few KB.
   */
  static final int MAX_DEPTH = 64;

  /**
   * An appended row: its checkpoint, how many deltas lie between the two (0 for a checkpoint),
   * the checkpoint's size and the deltas' total size. A chain ends early once its deltas outweigh
   * its checkpoint: a change that touches most of the state makes deltas as large as a full
   * envelope, and 64 of those would make a load parse the state 65 times instead of at most twice.
   */
  record Link(long epoch, long baseEpoch, int depth, long checkpointBytes, long deltaBytes) {
    boolean extendable() {
      return depth < MAX_DEPTH && deltaBytes < checkpointBytes;
    }

    /**
     * Half-way to either bound: time to rewrite this row as a checkpoint once its epoch is
     * published ({@link SnapshotStore#checkpoint}), so that no append has to write the whole state
     * inside the publish path.
     */
    boolean checkpointDue() {
      return depth > 0 && (depth >= MAX_DEPTH / 2 || 2 * deltaBytes >= checkpointBytes);
    }
  }

  /** The link of {@code full} rewritten as a checkpoint. */
  static Link checkpointOf(SnapshotEnvelope full) {
    check(full, full.getEpoch(), false);
    return new Link(full.getEpoch(), full.getEpoch(), 0, full.getSerializedSize(), 0);
  }

  private EpochChain() {}

  /** A stored row's place in its chain; {@code baseEpoch == epoch} for a checkpoint. */
  record Row(long epoch, long parentEpoch, long baseEpoch) {
    boolean full() {
      return baseEpoch == epoch;
    }
  }

  /** What to write for a newly sealed epoch, and its link for the next append. */
  record Stored(SnapshotEnvelope envelope, Link link) {
    boolean full() {
      return link.depth() == 0;
    }
  }

  /**
   * The stored form of {@code sealed}: a delta when the sealer offers one built on {@code tip} (the
   * epoch this store last appended; null if none) and the chain has room, else the full envelope.
   *
   * @param tipStored whether tip's row is still stored (another writer may have pruned it)
   */
  static <S> Stored choose(EpochSealer<S> sealer, S sealed, long epoch, Link tip, BooleanSupplier tipStored) {
    if (tip != null && tip.extendable()) {
      Optional<SnapshotEnvelope> delta = sealer.delta(sealed);
      if (delta.isPresent()) {
        SnapshotEnvelope d = delta.get();
        check(d, epoch, true);
        if (d.getParentEpoch() == tip.epoch() && tipStored.getAsBoolean()) {
          return new Stored(d, new Link(epoch, tip.baseEpoch(), tip.depth() + 1, tip.checkpointBytes(),
              tip.deltaBytes() + d.getSerializedSize()));
        }
      }
    }
    SnapshotEnvelope full = sealer.envelope(sealed);
    check(full, epoch, false);
    return new Stored(full, new Link(epoch, epoch, 0, full.getSerializedSize(), 0));
  }

  private static void check(SnapshotEnvelope envelope, long epoch, boolean delta) {
    if (envelope.getEpoch() != epoch) {
      throw new IllegalStateException(
          "sealer returned epoch " + envelope.getEpoch() + " for allocated epoch " + epoch);
    }
    if (envelope.getDelta() != delta) {
      throw new IllegalStateException("sealer returned a " + (delta ? "full envelope as the delta" : "delta as the full envelope")
          + " of epoch " + epoch);
    }
  }

  /**
   * Retention: the newest {@code keepLast} rows, the stored ones of {@code alsoKeep}, and every row
   * a kept delta needs to be rebuilt (its parents back to its checkpoint).
   */
  static Set<Long> retained(Collection<Row> rows, int keepLast, Set<Long> alsoKeep) {
    Map<Long, Row> byEpoch = new HashMap<>();
    rows.forEach(r -> byEpoch.put(r.epoch(), r));
    Set<Long> kept = new HashSet<>();
    rows.stream().map(Row::epoch).sorted(Comparator.reverseOrder()).limit(keepLast).forEach(kept::add);
    alsoKeep.stream().filter(byEpoch::containsKey).forEach(kept::add);
    Set<Long> needed = new HashSet<>();
    for (long epoch : kept) {
      Row r = byEpoch.get(epoch);
      while (r != null && needed.add(r.epoch()) && !r.full()) {
        r = byEpoch.get(r.parentEpoch());
      }
    }
    return needed;
  }
}
