package io.signalbox.store.chain;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.EpochSealer;
import io.signalbox.store.SnapshotStore;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * How epochs are stored: a chain starts with a full row (its base), then deltas each written on the
 * epoch before it, until the chain holds {@link #MAX_DEPTH} deltas since its nearest full copy and
 * the next epoch starts a new chain. Checkpoints add full copies to rows already written, so that
 * under a steady stream of epochs a chain goes on without any append writing the whole state. Both stores
 * choose and prune through here, so they behave alike for callers.
 */
public final class EpochChain {

  /**
   * Deltas after a full copy before the next full write. Loading an epoch parses its nearest full
   * copy and applies at most this many deltas (fewer than twice as many when a checkpoint the
   * appends counted on failed, {@link ChainTip#extensible}), so this bounds the cost of a load and
   * of a restart, and how many older rows retention keeps for a kept epoch. A full write at 10,000 clusters × 10
   * endpoints costs ~0.3 s on a busy 2-core machine ({@code StoreBenchmarks.appendFull}), so one
   * in 65 epochs adds ~5 ms to the average append; a one-endpoint delta is a few KB.
   */
  public static final int MAX_DEPTH = 64;

  /**
   * A row holding a full copy of its epoch: its chain's base row, or a row a checkpoint
   * ({@link SnapshotStore#checkpoint}) added a copy to. {@code chainDepth} and {@code chainBytes}
   * are the row's own (see {@link Link}); {@code bytes} is the copy's size.
   */
  public record FullCopy(long epoch, int chainDepth, long chainBytes, long bytes) {}

  /**
   * An appended row: its chain (named by the chain's base row), how many deltas lie between the
   * base and it ({@code chainDepth}, 0 for the base) and their total size, and the nearest row at
   * or before it on its parent path that holds a full copy. A load parses that copy and applies
   * the deltas after it, so the bounds count from there ({@link #depth}, {@link #deltaBytes}); a
   * chain itself may grow without limit while checkpoints keep landing. A chain ends early once its
   * deltas outweigh its full copy: a change that touches most of the state makes deltas as large
   * as a full envelope, and 64 of those would make a load parse the state 65 times instead of at
   * most twice.
   */
  public record Link(long epoch, long parentEpoch, long baseEpoch, int chainDepth, long chainBytes, FullCopy full) {

    /** Deltas since the nearest full copy. */
    public int depth() {
      return chainDepth - full.chainDepth();
    }

    /** Total size of the deltas since the nearest full copy. */
    public long deltaBytes() {
      return chainBytes - full.chainBytes();
    }

    public boolean extendable() {
      return depth() < MAX_DEPTH && deltaBytes() < full.bytes();
    }

    /**
     * Half-way to either bound: time to add a full copy of this row (or a row before it, since its
     * full copy) once its epoch is published ({@link SnapshotStore#checkpoint}), so that no append
     * has to write the whole state inside the publish path.
     */
    public boolean checkpointDue() {
      return depth() > 0 && (depth() >= MAX_DEPTH / 2 || 2 * deltaBytes() >= full.bytes());
    }

    /** Whether this row holds a full copy itself. */
    public boolean holdsFullCopy() {
      return full.epoch() == epoch;
    }

    public Link withFullCopy(FullCopy copy) {
      return new Link(epoch, parentEpoch, baseEpoch, chainDepth, chainBytes, copy);
    }

    /** This row's own full copy, of {@code bytes}. */
    public FullCopy asFullCopy(long bytes) {
      return new FullCopy(epoch, chainDepth, chainBytes, bytes);
    }
  }

  /** Fails fast unless {@code full} is a full envelope, as a checkpoint must be. */
  public static void checkCheckpoint(SnapshotEnvelope full) {
    if (full.getDelta()) {
      throw new IllegalArgumentException("checkpoint of epoch " + full.getEpoch() + " is a delta on epoch "
          + full.getParentEpoch() + ", not a full envelope");
    }
  }

  private EpochChain() {}

  /**
   * A stored row's place in its chain; {@code baseEpoch == epoch} for a chain's base row, which is
   * full. {@code fullCopy}: a checkpoint added a full copy to this delta row.
   */
  public record Row(long epoch, long parentEpoch, long baseEpoch, boolean fullCopy) {
    public boolean full() {
      return baseEpoch == epoch || fullCopy;
    }
  }

  /** What to write for a newly sealed epoch, and its link for the next append. */
  public record Stored(SnapshotEnvelope envelope, Link link) {
    /** Whether this starts a chain (a full envelope) rather than extending one (a delta). */
    public boolean full() {
      return link.chainDepth() == 0;
    }
  }

  /**
   * The stored form of {@code sealed}: a delta when the sealer offers one built on {@code tip}, else
   * the full envelope.
   *
   * @param tip the epoch this store last appended, if its chain has room for another delta ({@link
   *     ChainTip#extensible}); null if none
   * @param tipStored whether tip's row is still stored (another writer may have pruned it)
   */
  public static <S> Stored choose(EpochSealer<S> sealer, S sealed, long epoch, Link tip, BooleanSupplier tipStored) {
    if (tip != null) {
      Optional<SnapshotEnvelope> delta = sealer.delta(sealed);
      if (delta.isPresent()) {
        SnapshotEnvelope d = delta.get();
        check(d, epoch, true);
        if (d.getParentEpoch() == tip.epoch() && tipStored.getAsBoolean()) {
          return new Stored(d, new Link(epoch, tip.epoch(), tip.baseEpoch(), tip.chainDepth() + 1,
              tip.chainBytes() + d.getSerializedSize(), tip.full()));
        }
      }
    }
    SnapshotEnvelope full = sealer.envelope(sealed);
    check(full, epoch, false);
    return new Stored(full, new Link(epoch, full.getParentEpoch(), epoch, 0, 0,
        new FullCopy(epoch, 0, 0, full.getSerializedSize())));
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
   * a kept delta needs to be rebuilt (its parents back to the nearest one holding a full copy; the
   * chain's base row may go once a later row holds one).
   */
  public static Set<Long> retained(Collection<Row> rows, int keepLast, Set<Long> alsoKeep) {
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
