package io.signalbox.controlplane.xds;

import io.envoyproxy.controlplane.cache.ConfigWatcher;
import io.envoyproxy.controlplane.cache.DeltaResponse;
import io.envoyproxy.controlplane.cache.DeltaWatch;
import io.envoyproxy.controlplane.cache.DeltaXdsRequest;
import io.envoyproxy.controlplane.cache.Response;
import io.envoyproxy.controlplane.cache.Watch;
import io.envoyproxy.controlplane.cache.XdsRequest;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Signalbox's replacement for java-control-plane's {@code SimpleCache}: it answers each watch from
 * the current snapshot and the stream's own history ({@link Subscription}), sending only what the
 * client lacks, never a version the client NACKed, and never stalling a type because one
 * subscribed name does not exist.
 */
final class SnapshotWatcher implements ConfigWatcher {

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
          stream.flush(snapshot, clock.instant());
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
      stream.flush(now, clock.instant());
    }
  }

  @Override
  public Watch createWatch(boolean ads, XdsRequest request, Set<String> knownResourceNames,
      Consumer<Response> responseConsumer, boolean hasClusterChanged, boolean allowDefaultEmptyEdsUpdate) {
    Watch watch = new Watch(ads, allowDefaultEmptyEdsUpdate, request, responseConsumer);
    attach(request.v3Request(), request.getTypeUrl(), (stream, type, seen, now) -> stream.watch(type, watch, seen, now));
    // Types Signalbox does not serve (secrets, runtime) get a watch that is never answered.
    return watch;
  }

  @Override
  public DeltaWatch createDeltaWatch(DeltaXdsRequest request, String requesterVersion,
      Map<String, String> resourceVersions, Set<String> pendingResources, boolean isWildcard,
      Consumer<DeltaResponse> responseConsumer, boolean hasClusterChanged) {
    DeltaWatch watch = new DeltaWatch(request, resourceVersions, pendingResources, requesterVersion, isWildcard,
        responseConsumer);
    attach(request.v3Request(), request.getTypeUrl(), (stream, type, seen, now) -> stream.watch(type, watch, seen, now));
    return watch;
  }

  /** Opens a watch on the stream whose request this is (SotW and delta alike). */
  private interface Opening {
    void open(XdsStream stream, XdsType type, Snapshot seen, Instant now);
  }

  /**
   * Gives the watch just created for {@code v3Request} to its stream, answered at once from the
   * epoch released to the stream's wave if it has something new, then caught up with any newer one.
   */
  private void attach(Object v3Request, String typeUrl, Opening opening) {
    XdsStream stream = tracker.claim(v3Request);
    XdsType type = XdsType.fromTypeUrl(typeUrl);
    if (type != null) {
      Snapshot seen = released[stream.wave()];
      opening.open(stream, type, seen, clock.instant());
      catchUp(stream, seen);
    }
  }
}
