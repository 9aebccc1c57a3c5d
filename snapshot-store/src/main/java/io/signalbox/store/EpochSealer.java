package io.signalbox.store;

import io.signalbox.proto.v1.SnapshotEnvelope;

/**
 * Turns a candidate into a sealed snapshot once the store has allocated its epoch, inside the
 * store's transaction. Must be pure and quick: it runs while the epoch allocation is locked.
 */
public interface EpochSealer<S> {
  S seal(long epoch);

  /** The stored form of what {@link #seal} returned; its {@code epoch} must equal the allocated one. */
  SnapshotEnvelope envelope(S sealed);
}
