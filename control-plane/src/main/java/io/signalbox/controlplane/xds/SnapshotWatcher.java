package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Instant;

/**
 * The snapshots released to each wave, and the one way a stream is answered from them: a request
 * opens a type ({@link #attach}), a release flushes the streams it concerns ({@link #release}).
 * What each stream is sent comes from its own history ({@link Subscription}): only what the client
 * lacks, never a version the client NACKed, and no type stalled because one subscribed name does
 * not exist.
 */
final class SnapshotWatcher {

  private final StreamTracker tracker;
  private final Clock clock;
  // The snapshot released to each wave; replaced whole (copy on write) under `this`.
  private volatile Snapshot[] released;
  // Held for a whole release, so each release starts from the settled previous one.
  private final Object releasing = new Object();

  SnapshotWatcher(StreamTracker tracker, Clock clock, int waves) {
    this.tracker = tracker;
    this.clock = clock;
    this.released = new Snapshot[waves];
  }

  /** The newest snapshot released to any wave. */
  Snapshot current() {
    Snapshot newest = null;
    for (Snapshot s : released) {
      if (s != null && (newest == null || s.epoch() > newest.epoch())) {
        newest = s;
      }
    }
    return newest;
  }

  Snapshot releasedTo(int wave) {
    return released[wave];
  }

  /** Releases {@code snapshot} to every wave at once. */
  void publish(Snapshot snapshot) {
    for (int wave = 0; wave < released.length; wave++) {
      release(wave, snapshot);
    }
  }

  /**
   * Makes {@code snapshot} current for one wave and answers every open watch of that wave's
   * streams it changes. A wave never moves to an older or equal epoch.
   *
   * <p>A release whose parent is the wave's previous one, with its changes known per name, flushes
   * only the streams it concerns ({@link ReleaseIndex#concerned}); every other stream holds it
   * without being visited, once the release is settled (see {@code XdsStream.carry}). Any other
   * release flushes every stream of the wave. Releases run one at a time, so each starts from the
   * settled previous one.
   */
  void release(int wave, Snapshot snapshot) {
    synchronized (releasing) {
      Snapshot previous;
      synchronized (this) {
        previous = released[wave];
        if (previous != null && snapshot.epoch() <= previous.epoch()) {
          if (snapshot.epoch() == previous.epoch()) {
            return;
          }
          throw new IllegalArgumentException("epoch " + snapshot.epoch() + " is not newer than epoch "
              + previous.epoch() + " already released to wave " + wave);
        }
        Snapshot[] next = released.clone();
        next[wave] = snapshot;
        released = next;
      }
      Instant at = clock.instant();
      ReleaseIndex index = tracker.index();
      ReleaseIndex.Settled before = index.settled(wave);
      boolean incremental = previous != null && before != null && before.epoch() == previous.epoch()
          && snapshot.parentEpoch() == previous.epoch() && changesKnown(snapshot);
      for (XdsStream stream : incremental ? index.concerned(snapshot) : tracker.streams()) {
        if (stream.wave() == wave) {
          index.visited();
          // One time for the whole release: what it sends is "sent at" when it was released. In
          // the stream's context: now, or after the request another thread is handling for it.
          stream.flush(snapshot, at);
        }
      }
      index.settle(wave, new ReleaseIndex.Settled(snapshot.epoch(), snapshot.createdAt(), at,
          incremental ? before.chainStart() : snapshot.epoch()));
      tracker.statusesMoved();
    }
  }

  /** Whether {@code snapshot} says, for every type, which names changed since its parent. */
  private static boolean changesKnown(Snapshot snapshot) {
    for (XdsType type : XdsType.values()) {
      if (snapshot.resources(type).changedSinceParent() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * A release between reading {@code seen} and registering the watch flushed the stream while the
   * watch was not there yet, and the watch was answered from the older snapshot: that epoch would
   * reach the client only with the next one. {@link #release} stores the snapshot before it flushes,
   * so reading again after registering sees every release whose flush may have missed the watch.
   */
  private void catchUp(XdsStream stream, Snapshot seen) {
    Snapshot now = released[stream.wave()];
    if (now != seen) {
      stream.flushInContext(now, clock.instant());
    }
  }

  /**
   * Answers the type a request on {@code stream} just opened, at once from the epoch released to
   * the stream's wave if it has something new, then caught up with any newer one. In the stream's
   * context, in the task that handled the request.
   */
  void attach(XdsStream stream, XdsType type) {
    Snapshot seen = released[stream.wave()];
    stream.watch(type, seen, clock.instant());
    catchUp(stream, seen);
  }
}
