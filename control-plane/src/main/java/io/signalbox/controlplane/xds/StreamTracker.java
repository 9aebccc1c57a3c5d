package io.signalbox.controlplane.xds;

import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.signalbox.controlplane.snapshot.Snapshot;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows every ADS stream through java-control-plane's callbacks: who the client is, what it
 * subscribes to, and whether each response was ACKed or NACKed — classified by
 * {@code error_detail}, never by comparing versions.
 *
 * <p>java-control-plane calls {@code onV3StreamRequest} and then, on the same thread and for the
 * same request object, {@code ConfigWatcher.createWatch}, which is not told the stream. The request
 * object is the hand-off: {@link #claim} finds the stream whose latest request it is.
 */
final class StreamTracker implements DiscoveryServerCallbacks {

  private static final Logger log = LoggerFactory.getLogger(StreamTracker.class);

  private final Map<Long, XdsStream> streams = new ConcurrentHashMap<>();
  // Bumped whenever a stream opens or closes or any stream's status may have changed.
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
  // Bumped whenever a stream opens or closes or learns its node: what changes the fleet list's order.
  private final java.util.concurrent.atomic.AtomicLong members = new java.util.concurrent.atomic.AtomicLong();
  // The stream whose request this thread is handling; set in onV3StreamRequest and claimed by the
  // watcher a few frames later on the same thread.
  private final ThreadLocal<XdsStream> handling = new ThreadLocal<>();
  private final Clock clock;
  private final IntFunction<Snapshot> releasedTo;
  private final Waves waves;
  private final ClientKinds kinds;
  // One per shape of assignment other than the snapshot's own (DRAINING sent another way, one drop
  // category), shared by every stream of that shape.
  private final Map<AssignmentVariants.Shape, AssignmentVariants> variants = new java.util.HashMap<>();
  private final MeterRegistry meters;
  private final Map<XdsType, Counter> bytesPushed = new java.util.EnumMap<>(XdsType.class);
  private final ReleaseIndex index;

  StreamTracker(Clock clock, Waves waves, IntFunction<Snapshot> releasedTo, MeterRegistry meters) {
    this(clock, waves, ClientKinds.NONE, releasedTo, meters);
  }

  /** @param kinds tells each node's client kind, and so how DRAINING endpoints are sent to it */
  StreamTracker(Clock clock, Waves waves, ClientKinds kinds, IntFunction<Snapshot> releasedTo, MeterRegistry meters) {
    this.kinds = kinds;
    this.index = new ReleaseIndex(waves.count());
    for (AssignmentVariants.Shape shape : AssignmentVariants.Shape.variants()) {
      variants.put(shape, new AssignmentVariants(shape));
    }
    // Looked up once: registering a meter is a map lookup under a lock, too much on every response.
    for (XdsType t : XdsType.values()) {
      bytesPushed.put(t, Counter.builder("signalbox_xds_bytes_pushed").tag("type", t.name()).register(meters));
    }
    this.clock = clock;
    this.waves = waves;
    this.releasedTo = releasedTo;
    this.meters = meters;
  }

  ClientKinds kinds() {
    return kinds;
  }

  /** Which streams a release concerns; {@link SnapshotWatcher} asks it. */
  ReleaseIndex index() {
    return index;
  }

  /** Every stream's status may have moved (a release settled): the fleet's client list is rebuilt. */
  void statusesMoved() {
    changes.incrementAndGet();
  }

  Collection<XdsStream> streams() {
    return streams.values();
  }

  /**
   * A number that grows whenever a stream opens or closes or any stream's status may have changed:
   * while it stays the same, every stream's {@link XdsStream#status} does too.
   */
  long changes() {
    return changes.get();
  }

  /**
   * A number that grows whenever a stream opens or closes or learns its node id: while it stays the
   * same, so do the streams and their order by node id.
   */
  long members() {
    return members.get();
  }

  @Override
  public void onStreamOpen(long streamId, String typeUrl) {
    // The variant (SotW or delta) is known only at the first request; see stream().
  }

  @Override
  public void onStreamClose(long streamId, String typeUrl) {
    closed(streamId);
  }

  @Override
  public void onStreamCloseWithError(long streamId, String typeUrl, Throwable error) {
    closed(streamId);
  }

  private void closed(long streamId) {
    XdsStream s = streams.remove(streamId);
    members.incrementAndGet();
    changes.incrementAndGet();
    if (s != null) {
      s.unindex();
      log.info("xDS stream {} from node '{}' closed", streamId, s.node().getId());
    }
  }

  @Override
  public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
    XdsStream stream = stream(streamId, false);
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    synchronized (stream) {
      received(stream, request, request.hasNode() ? request.getNode() : null);
      if (type != null) {
        Subscription sub = stream.subscription(type);
        String nonce = request.getResponseNonce();
        if (!nonce.isEmpty() && !nonce.equals(sub.lastNonce)) {
          // A reply to a response that has since been superseded; the library ignores it too.
          handling.set(stream);
          return;
        }
        answer(stream, sub, nonce, request.hasErrorDetail() ? request.getErrorDetail().getMessage() : null);
        sub.subscribeSotw(request.getResourceNamesList(), request.getVersionInfo(), releasedTo.apply(stream.wave()));
      }
    }
    handling.set(stream);
  }

  @Override
  public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
    XdsStream stream = stream(streamId, true);
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    synchronized (stream) {
      received(stream, request, request.hasNode() ? request.getNode() : null);
      if (type != null) {
        Subscription sub = stream.subscription(type);
        String nonce = request.getResponseNonce();
        if (!nonce.isEmpty() && nonce.equals(sub.lastNonce)) {
          answer(stream, sub, nonce, request.hasErrorDetail() ? request.getErrorDetail().getMessage() : null);
        }
        sub.subscribeDelta(request.getResourceNamesSubscribeList(), request.getResourceNamesUnsubscribeList(),
            request.getInitialResourceVersionsMap(), releasedTo.apply(stream.wave()));
      }
    }
    handling.set(stream);
  }

  /**
   * What every request (SotW or delta) does first, with the stream's lock held: the stream's status
   * may move, its first node names it, and the request is handed to the watch it creates ({@link #claim}).
   */
  private void received(XdsStream stream, Object request, io.envoyproxy.envoy.config.core.v3.Node node) {
    stream.changed();
    if (stream.nodeIfFirst(node)) {
      members.incrementAndGet();
    }
    stream.lastRequest = request;
  }

  private void answer(XdsStream stream, Subscription sub, String nonce, String errorMessage) {
    PendingResponse p = sub.pending;
    if (p == null || !nonce.equals(p.nonce)) {
      return;
    }
    // What the client holds of this type decides what it keeps of the child type (make-before-break).
    if (sub.type.child() != null) {
      stream.touch(sub.type.child());
    }
    if (errorMessage == null) {
      sub.ack(clock.instant());
    } else {
      sub.nack(errorMessage, clock.instant());
      meters.counter("signalbox_nacks", "type", sub.type.name()).increment();
      log.warn("node '{}' (stream {}) NACKed {} version {} (epoch {}): {}", stream.node().getId(), stream.id,
          sub.type, p.version, p.epoch, errorMessage);
    }
  }

  @Override
  public void onV3StreamResponse(long streamId, DiscoveryRequest request, DiscoveryResponse response) {
    sent(streamId, response.getTypeUrl(), response.getNonce(), response.getSerializedSize());
  }

  @Override
  public void onV3StreamDeltaResponse(long streamId, DeltaDiscoveryRequest request, DeltaDiscoveryResponse response) {
    sent(streamId, response.getTypeUrl(), response.getNonce(), response.getSerializedSize());
  }

  private void sent(long streamId, String typeUrl, String nonce, int bytes) {
    XdsStream stream = streams.get(streamId);
    XdsType type = XdsType.fromTypeUrl(typeUrl);
    if (stream == null || type == null) {
      return;
    }
    synchronized (stream) {
      Subscription sub = stream.subscription(type);
      sub.lastNonce = nonce;
      if (sub.pending != null && sub.pending.nonce == null) {
        sub.pending.nonce = nonce;
      }
    }
    bytesPushed.get(type).increment(bytes);
  }

  /** The stream whose request {@code request} is, as handed over by the request callback. */
  XdsStream claim(Object request) {
    XdsStream stream = handling.get();
    handling.remove();
    if (stream == null || stream.lastRequest != request) {
      throw new IllegalStateException("no stream is handling request " + request.getClass().getSimpleName()
          + " on thread " + Thread.currentThread().getName() + ": java-control-plane changed its call order");
    }
    return stream;
  }

  private XdsStream stream(long streamId, boolean delta) {
    XdsStream existing = streams.get(streamId);
    if (existing != null) {
      return existing;
    }
    XdsStream created = new XdsStream(streamId, delta, clock.instant(), waves, changes,
        node -> variants.get(new AssignmentVariants.Shape(kinds.drainingAs(node), kinds.oneDropCategory(node))), index);
    XdsStream raced = streams.putIfAbsent(streamId, created);
    if (raced != null) {
      return raced;
    }
    log.info("xDS stream {} opened ({})", streamId, delta ? "delta" : "state of the world");
    // After the stream is in the map: a reader that sees the new count also sees the stream.
    members.incrementAndGet();
    changes.incrementAndGet();
    return created;
  }
}
