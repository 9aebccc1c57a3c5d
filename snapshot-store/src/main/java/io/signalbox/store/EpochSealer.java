package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.Optional;

/**
 * Turns a candidate into a sealed snapshot once the store has allocated its epoch, inside the
 * store's transaction. Must be pure and quick: it runs while the epoch allocation is locked.
 */
public interface EpochSealer<S> {
  S seal(long epoch);

  /** The stored form of what {@link #seal} returned; its {@code epoch} must equal the allocated one. */
  SnapshotEnvelope envelope(S sealed);

  /**
   * What {@link #seal} returned as a delta on its parent epoch (a {@link SnapshotEnvelope} with
   * {@code delta} set: see that field), so that storing an epoch costs O(change) rather than
   * O(state); empty when the sealer cannot tell what changed. The store decides: it asks for the
   * delta only when it can extend the chain of the epoch it last appended, writes it only when its
   * {@code parent_epoch} is that epoch, and otherwise writes {@link #envelope}.
   */
  default Optional<SnapshotEnvelope> delta(S sealed) {
    return Optional.empty();
  }
}
