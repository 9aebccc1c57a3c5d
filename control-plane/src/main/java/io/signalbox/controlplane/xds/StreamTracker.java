package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.signalbox.controlplane.snapshot.Snapshot;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every open ADS stream, and what each request says: who the client is, what it subscribes to,
 * and whether the response it answers was ACKed or NACKed — classified by {@code error_detail},
 * never by comparing versions. The transport ({@link AdsService}) opens and closes streams and
 * hands each request here in the stream's context ({@link XdsStream#run}); {@link SnapshotWatcher}
 * then answers the type the request opened, in the same task.
 */
final class StreamTracker {

  private static final Logger log = LoggerFactory.getLogger(StreamTracker.class);

  private final Map<Long, XdsStream> streams = new ConcurrentHashMap<>();
  // Bumped whenever a stream opens or closes or any stream's status may have changed.
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
  // Bumped whenever a stream opens or closes or learns its node: what changes the fleet list's order.
  private final java.util.concurrent.atomic.AtomicLong members = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong();
  private final Clock clock;
  private final IntFunction<Snapshot> releasedTo;
  private final Waves waves;
  private final ClientKinds kinds;
  // One per shape of assignment other than the snapshot's own (DRAINING sent another way, one drop
  // category, a zone's preference), shared by every stream of that shape; a zone's shapes are added
  // when its first client comes, on whichever thread that is.
  private final Map<AssignmentVariants.Shape, AssignmentVariants> variants = new ConcurrentHashMap<>();
  private final MeterRegistry meters;
  private final Map<XdsType, Counter> bytesPushed = new java.util.EnumMap<>(XdsType.class);
  private final ResponseEncoder encoder = new ResponseEncoder();
  private final ReleaseIndex index;
  private final StreamEvents events = new StreamEvents();

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

  /** From now on, every response sent, ACK, NACK and closing goes to {@code sink} as well. */
  void recordTo(StreamEventSink sink) {
    events.to(sink);
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

  /**
   * The EDS variants {@code node} gets, or null for the snapshot's own. A zone's shape serves the
   * snapshot's own assignments wherever no cluster prefers that zone ({@link
   * io.signalbox.controlplane.translate.ZoneView}), so a client with a zone gets the same bytes as
   * before unless a cluster asks for zone preference.
   */
  private AssignmentVariants variantsFor(io.envoyproxy.envoy.config.core.v3.Node node) {
    AssignmentVariants.Shape shape = new AssignmentVariants.Shape(kinds.drainingAs(node), kinds.oneDropCategory(node),
        node.getLocality().getZone());
    return shape.equals(AssignmentVariants.Shape.OWN) ? null : variants.computeIfAbsent(shape, AssignmentVariants::new);
  }

  /** The stream ended (the client left, was refused, or the server stops): it is forgotten. */
  void closed(XdsStream s) {
    XdsStream removed = streams.remove(s.id);
    members.incrementAndGet();
    changes.incrementAndGet();
    if (removed != null) {
      s.run(s::unindex);
      events.closed(s, s.node().getId(), clock.instant());
      log.info("xDS stream {} from node '{}' closed", s.id, s.node().getId());
    }
  }

  /**
   * A state-of-the-world request on {@code stream}: its answer to the last response of its type, if
   * it is one, and the names it asks for now.
   *
   * @return the type to answer next, or null when the request opens nothing: a type Signalbox does
   *     not serve, or a stale nonce (a reply to a response since superseded, which the protocol says
   *     to ignore)
   */
  XdsType received(XdsStream stream, DiscoveryRequest request) {
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    received(stream, request.hasNode() ? request.getNode() : null);
    if (type == null) {
      return null;
    }
    Subscription sub = stream.subscription(type);
    String nonce = request.getResponseNonce();
    if (!nonce.isEmpty() && !nonce.equals(sub.lastNonce)) {
      return null;
    }
    answer(stream, sub, nonce, request.hasErrorDetail() ? request.getErrorDetail().getMessage() : null);
    sub.subscribeSotw(request.getResourceNamesList(), request.getVersionInfo(), releasedTo.apply(stream.wave()));
    return type;
  }

  /**
   * A delta request on {@code stream}: an answer when its nonce names the last response of its
   * type (any other nonce answers nothing), and the names it subscribes to or drops, which count
   * whatever the nonce, since a delta request says only what changed.
   *
   * @return the type to answer next, or null for a type Signalbox does not serve
   */
  XdsType received(XdsStream stream, DeltaDiscoveryRequest request) {
    XdsType type = XdsType.fromTypeUrl(request.getTypeUrl());
    received(stream, request.hasNode() ? request.getNode() : null);
    if (type == null) {
      return null;
    }
    Subscription sub = stream.subscription(type);
    String nonce = request.getResponseNonce();
    if (!nonce.isEmpty() && nonce.equals(sub.lastNonce)) {
      answer(stream, sub, nonce, request.hasErrorDetail() ? request.getErrorDetail().getMessage() : null);
    }
    sub.subscribeDelta(request.getResourceNamesSubscribeList(), request.getResourceNamesUnsubscribeList(),
        request.getInitialResourceVersionsMap(), releasedTo.apply(stream.wave()));
    return type;
  }

  /** What every request (SotW or delta) does first, in the stream's context. */
  private void received(XdsStream stream, io.envoyproxy.envoy.config.core.v3.Node node) {
    stream.changed();
    if (stream.nodeIfFirst(node)) {
      members.incrementAndGet();
    }
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
    Instant now = clock.instant();
    if (errorMessage == null) {
      sub.ack(now);
      events.answered(stream, stream.node().getId(), sub.type, p.epoch, p.version, null, List.of(), now);
    } else {
      sub.nack(errorMessage, now);
      events.answered(stream, stream.node().getId(), sub.type, p.epoch, p.version, errorMessage,
          List.copyOf(sub.lastNack.resources().keySet()), now);
      meters.counter("signalbox_nacks", "type", sub.type.name()).increment();
      log.warn("node '{}' (stream {}) NACKed {} version {} (epoch {}): {}", stream.node().getId(), stream.id,
          sub.type, p.version, p.epoch, errorMessage);
    }
  }

  /**
   * A new stream (SotW or delta), writing through {@code context} with {@code sink}.
   *
   * @param sink writes one response to the stream; runs in {@code context}
   */
  XdsStream open(boolean delta, io.grpc.SynchronizationContext context,
      java.util.function.Consumer<EncodedResponse.Stamped> sink) {
    long streamId = ids.getAndIncrement();
    XdsStream created = new XdsStream(streamId, delta, clock.instant(), waves, changes,
        this::variantsFor, index,
        new Outbound(context, sink, encoder, bytesPushed), events);
    streams.put(streamId, created);
    log.info("xDS stream {} opened ({})", streamId, delta ? "delta" : "state of the world");
    // After the stream is in the map: a reader that sees the new count also sees the stream.
    members.incrementAndGet();
    changes.incrementAndGet();
    return created;
  }
}
