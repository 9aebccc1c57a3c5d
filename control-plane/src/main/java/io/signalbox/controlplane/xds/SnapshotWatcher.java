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
  private volatile Snapshot current;

  SnapshotWatcher(StreamTracker tracker, Clock clock) {
    this.tracker = tracker;
    this.clock = clock;
  }

  Snapshot current() {
    return current;
  }

  /** Makes {@code snapshot} current and answers every open watch it changes, stream by stream. */
  void publish(Snapshot snapshot) {
    Snapshot previous = current;
    if (previous != null && snapshot.epoch() <= previous.epoch()) {
      throw new IllegalArgumentException(
          "epoch " + snapshot.epoch() + " is not newer than the current epoch " + previous.epoch());
    }
    current = snapshot;
    for (XdsStream stream : tracker.streams()) {
      stream.flush(snapshot, clock.instant());
    }
  }

  @Override
  public Watch createWatch(boolean ads, XdsRequest request, Set<String> knownResourceNames,
      Consumer<Response> responseConsumer, boolean hasClusterChanged, boolean allowDefaultEmptyEdsUpdate) {
    Watch watch = new Watch(ads, allowDefaultEmptyEdsUpdate, request, responseConsumer);
    XdsStream stream = tracker.claim(request.v3Request());
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    if (type != null) {
      stream.watch(type, watch, current, clock.instant());
    }
    // Types Signalbox does not serve (secrets, runtime) get a watch that is never answered.
    return watch;
  }

  @Override
  public DeltaWatch createDeltaWatch(DeltaXdsRequest request, String requesterVersion,
      Map<String, String> resourceVersions, Set<String> pendingResources, boolean isWildcard,
      Consumer<DeltaResponse> responseConsumer, boolean hasClusterChanged) {
    DeltaWatch watch = new DeltaWatch(request, resourceVersions, pendingResources, requesterVersion, isWildcard,
        responseConsumer);
    XdsStream stream = tracker.claim(request.v3Request());
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    if (type != null) {
      stream.watch(type, watch, current, clock.instant());
    }
    return watch;
  }
}
