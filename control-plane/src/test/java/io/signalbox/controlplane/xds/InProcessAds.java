package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Signalbox's xDS server without gRPC: the real {@link StreamTracker}, {@link SnapshotWatcher},
 * {@link XdsStream} and {@link Subscription}, driven the way {@link AdsService} drives them (the
 * request to the tracker, then the type it opens to the watcher; each response decoded from the
 * bytes a client would read), all on the caller's thread. A test decides when each client answers
 * what, so interleavings of publishes, ACKs, NACKs and reconnects are exact and take no time.
 * State-of-the-world ADS only. A client's methods are called from one test thread; responses to
 * a publish arrive on the publishing thread.
 */
public final class InProcessAds implements XdsServer {

  private final StreamTracker tracker;
  private final SnapshotWatcher watcher;

  public InProcessAds(Clock clock) {
    SnapshotWatcher[] ref = new SnapshotWatcher[1];
    this.tracker = new StreamTracker(clock, Waves.NONE, wave -> ref[0].releasedTo(wave), new SimpleMeterRegistry());
    this.watcher = new SnapshotWatcher(tracker, clock, Waves.NONE.count());
    ref[0] = watcher;
  }

  /** Opens a SotW stream for {@code nodeId}; it asks for nothing until {@link Client#subscribe}. */
  public Client connect(String nodeId) {
    return new Client(Node.newBuilder().setId(nodeId).build());
  }

  /** One client stream. Not thread-safe: the test drives it from one thread. */
  public final class Client {
    private final XdsStream stream;
    private final Node node;
    private boolean nodeSent;
    private final Map<XdsType, List<String>> names = new EnumMap<>(XdsType.class);
    // The latest response of each type the client has not answered yet. Written by whichever
    // thread publishes (the writer's, for a new epoch) as well as the test's.
    private final Map<XdsType, DiscoveryResponse> unanswered = new java.util.concurrent.ConcurrentHashMap<>();
    private boolean closed;

    private final io.grpc.SynchronizationContext context = new io.grpc.SynchronizationContext((t, e) -> {
      throw new AssertionError(e);
    });

    private Client(Node node) {
      this.node = node;
      this.stream = tracker.open(false, context, this::sent);
    }

    /** The stream's serializing context: a test can keep it busy, as a slow request would. */
    public io.grpc.SynchronizationContext context() {
      return context;
    }

    public String nodeId() {
      return node.getId();
    }

    /** The first request of a type: {@code names} empty is the LDS/CDS wildcard. */
    public void subscribe(XdsType type, List<String> resourceNames) {
      names.put(type, List.copyOf(resourceNames));
      send(DiscoveryRequest.newBuilder().setTypeUrl(type.typeUrl()).addAllResourceNames(resourceNames));
    }

    /** Responses waiting for an answer, by type. */
    public Map<XdsType, DiscoveryResponse> unanswered() {
      return Map.copyOf(unanswered);
    }

    /** ACKs the waiting response of {@code type}. */
    public void ack(XdsType type) {
      answer(type, null);
    }

    /** NACKs the waiting response of {@code type}, keeping the version it accepted before. */
    public void nack(XdsType type, String message) {
      answer(type, message);
    }

    private void answer(XdsType type, String nack) {
      DiscoveryResponse r = unanswered.remove(type);
      if (r == null) {
        throw new IllegalStateException(node.getId() + " has no " + type + " response to answer");
      }
      DiscoveryRequest.Builder req = DiscoveryRequest.newBuilder().setTypeUrl(type.typeUrl())
          .addAllResourceNames(names.get(type)).setResponseNonce(r.getNonce());
      if (nack == null) {
        req.setVersionInfo(r.getVersionInfo());
      } else {
        req.setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage(nack));
      }
      send(req);
    }

    private void send(DiscoveryRequest.Builder builder) {
      if (closed) {
        throw new IllegalStateException("stream " + stream.id + " is closed");
      }
      if (!nodeSent) {
        builder.setNode(node);
        nodeSent = true;
      }
      DiscoveryRequest request = builder.build();
      stream.run(() -> {
        XdsType type = tracker.received(stream, request);
        if (type != null) {
          watcher.attach(stream, type);
        }
      });
    }

    private void sent(EncodedResponse.Stamped response) {
      DiscoveryResponse r;
      try {
        r = DiscoveryResponse.parseFrom(response.toByteArray());
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new AssertionError("a response a client cannot decode", e);
      }
      unanswered.put(XdsType.fromTypeUrl(r.getTypeUrl()), r);
    }

    /** The client goes away (a crash or a reconnect): the server forgets the stream. */
    public void close() {
      closed = true;
      tracker.closed(stream);
    }
  }

  /** Streams flushed by releases so far: what one release cost in streams visited. */
  long releaseVisits() {
    return tracker.index().visits();
  }

  @Override
  public int port() {
    return 0;
  }

  private final List<Snapshot> published = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public void publish(Snapshot snapshot) {
    published.add(snapshot);
    watcher.publish(snapshot);
  }

  /** Every snapshot published here, in order. */
  public List<Snapshot> published() {
    return List.copyOf(published);
  }

  @Override
  public void release(int wave, Snapshot snapshot) {
    published.add(snapshot);
    watcher.release(wave, snapshot);
  }

  @Override
  public Snapshot releasedTo(int wave) {
    return watcher.releasedTo(wave);
  }

  @Override
  public Snapshot current() {
    return watcher.current();
  }

  @Override
  public List<ClientStatus> clients() {
    return tracker.streams().stream().map(XdsStream::status)
        .sorted(Comparator.comparing(ClientStatus::nodeId).thenComparingLong(ClientStatus::streamId)).toList();
  }

  @Override
  public List<ClientStatus> holders(XdsType type, String name) {
    return tracker.streams().stream().filter(s -> s.holds(type, name)).map(XdsStream::status).toList();
  }

  @Override
  public void close() {}
}
