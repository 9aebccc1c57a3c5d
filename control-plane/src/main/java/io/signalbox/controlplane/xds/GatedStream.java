package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.tls.NodeIdentity;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One ADS or LRS stream as {@link StreamGate} sees it: each request is checked before the service
 * gets it. A refused stream is closed with a status naming the rule, and the service is told the
 * stream was cancelled, so it lets go of it as of a client that left.
 *
 * <p>The listener's methods run one at a time on the transport thread (the server uses a direct
 * executor), so the fields below need no lock; what is written to the call goes through its
 * serializing context ({@link GatedCall}).
 */
final class GatedStream<Q, A> {

  private final StreamGate gate;
  private final GatedCall<Q, A> call;
  private final Peer peer;
  private final StreamGate.Connection connection;
  private ServerCall.Listener<Q> delegate;
  private boolean refused;
  private boolean ended;
  /** The node this stream belongs to, from its first request: its id and cluster only (not the whole Node). */
  private String boundId;
  private String boundCluster;

  GatedStream(StreamGate gate, ServerCall<Q, A> call, Peer peer, StreamGate.Connection connection) {
    this.gate = gate;
    this.call = new GatedCall<>(call, new AtomicInteger(), this);
    this.peer = peer;
    this.connection = connection;
  }

  ServerCall.Listener<Q> start(ServerCallHandler<Q, A> next, Metadata headers) {
    delegate = next.startCall(call, headers);
    return new ServerCall.Listener<>() {
      @Override
      public void onMessage(Q message) {
        if (!refused && admit(message)) {
          delegate.onMessage(message);
        }
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          delegate.onHalfClose();
        }
      }

      @Override
      public void onCancel() {
        end();
        if (!refused) {
          // grpc cancelled the call (the client left, or grpc refused a request, e.g. one over
          // xds.limits.maxRequestBytes, and sends that status itself): nothing more is written to it.
          call.closedByTransport();
          delegate.onCancel();
        }
      }

      @Override
      public void onComplete() {
        end();
        if (!refused) {
          delegate.onComplete();
        }
      }

      @Override
      public void onReady() {
        if (!refused) {
          delegate.onReady();
        }
      }
    };
  }

  private void end() {
    if (!ended && connection != null) {
      connection.streams.decrementAndGet();
    }
    ended = true;
  }

  /** Whether {@code message} may go on to the service; if not, the stream is refused. */
  private boolean admit(Q message) {
    if (message instanceof LoadStatsRequest r) {
      // A load-report stream sends every interval and is answered once: no pending limit, but the
      // same node identity rule as ADS.
      return admitNode(r.hasNode() ? r.getNode() : null);
    }
    // A client asks again only when answered (an ACK or NACK) or when its subscription changes, and
    // the server answers each type at most once until that answer is ACKed or NACKed. A stream that
    // keeps sending while nothing is sent back (stale nonces, repeats the server has no answer to)
    // costs a parse and the callbacks each time and gets nothing: past the limit it is refused.
    if (call.unanswered.incrementAndGet() > gate.limits.maxPendingRequests()) {
      return exceeded(StreamGate.MAX_PENDING_REQUESTS, "more than " + gate.limits.maxPendingRequests()
          + " requests without a response in between (xds.limits." + StreamGate.MAX_PENDING_REQUESTS + ")");
    }
    if (message instanceof DiscoveryRequest r) {
      return admitNode(r.hasNode() ? r.getNode() : null) && admitType(r.getTypeUrl())
          && admitNames(r.getTypeUrl(), r.getResourceNamesCount());
    }
    if (message instanceof DeltaDiscoveryRequest r) {
      // A delta request says only what changed: how many names the stream then subscribes to is
      // known once the service applied it, and checked there (GatedCall#admitsNames).
      return admitNode(r.hasNode() ? r.getNode() : null) && admitType(r.getTypeUrl());
    }
    return true;
  }

  /**
   * Every discovery request names the type it is about (xDS protocol, "type_url"); one that does
   * not is malformed, and the client is told so. A type URL Signalbox does not serve is no error: it
   * is never answered, as the protocol allows (an Envoy may ask for secrets on the same stream).
   */
  private boolean admitType(String typeUrl) {
    if (!typeUrl.isEmpty()) {
      return true;
    }
    return close(Status.INVALID_ARGUMENT.withDescription(
        "the request has no type_url: every discovery request must name the resource type it is about"));
  }

  private boolean admitNames(String typeUrl, int count) {
    if (count <= gate.limits.maxNamesPerSubscription()) {
      return true;
    }
    XdsType type = XdsType.fromTypeUrl(typeUrl);
    return exceeded(StreamGate.MAX_NAMES_PER_SUBSCRIPTION, "subscribes to more than "
        + gate.limits.maxNamesPerSubscription() + " " + (type == null ? typeUrl : type.name()) + " names (xds.limits."
        + StreamGate.MAX_NAMES_PER_SUBSCRIPTION + ")");
  }

  private boolean admitNode(Node node) {
    if (boundId != null) {
      if (node != null && (!node.getId().equals(boundId) || !node.getCluster().equals(boundCluster))) {
        // Bound to a certificate, another node is someone else's: denied. Otherwise the request is
        // malformed (a stream belongs to one node), and the client is told it is at fault.
        return refuse(Refusal.Reason.NODE_CHANGED, gate.identity != null ? Status.PERMISSION_DENIED
            : Status.INVALID_ARGUMENT, describe(node),
            "this stream belongs to node " + describe(boundId, boundCluster) + "; a request claimed node "
                + describe(node));
      }
      return true;
    }
    boolean named = node != null && !node.getId().isEmpty();
    if (gate.identity == null) {
      if (named) {
        bind(node);
      }
      return true;
    }
    if (!named) {
      return refuse(Refusal.Reason.INVALID_NODE, Status.INVALID_ARGUMENT, null,
          "the first request of a stream must carry node.id: xds.tls.nodeIdentity checks it against the certificate");
    }
    NodeIdentity.Expected expected = gate.identity.expect(node.getId(), node.getCluster());
    if (expected instanceof NodeIdentity.Expected.Unusable unusable) {
      return refuse(Refusal.Reason.INVALID_NODE, Status.INVALID_ARGUMENT, describe(node), unusable.message());
    }
    String uri = ((NodeIdentity.Expected.Identity) expected).uri();
    if (!peer.uriSans().contains(uri)) {
      return refuse(Refusal.Reason.IDENTITY_MISMATCH, Status.PERMISSION_DENIED, describe(node),
          "node " + describe(node) + " must present a certificate with URI SAN '" + uri + "'; this one ('"
              + peer.subject() + "') has " + (peer.uriSans().isEmpty() ? "none" : peer.uriSans()));
    }
    bind(node);
    return true;
  }

  private void bind(Node node) {
    boundId = node.getId();
    boundCluster = node.getCluster();
  }

  private static String describe(Node node) {
    return describe(node.getId(), node.getCluster());
  }

  private static String describe(String id, String cluster) {
    return "'" + id + "' (cluster '" + cluster + "')";
  }

  private boolean refuse(Refusal.Reason reason, Status status, String node, String message) {
    gate.refusals.refuse(reason, peer.address(), node, peer.subject(), message);
    return close(status.withDescription(message));
  }

  private boolean exceeded(String limit, String message) {
    gate.refusals.exceeded(limit, peer.address(), boundId == null ? null : describe(boundId, boundCluster), message);
    return close(Status.RESOURCE_EXHAUSTED.withDescription(message));
  }

  private boolean close(Status status) {
    refused = true;
    call.closeOnce(status);
    // The service releases the stream as cancelled.
    delegate.onCancel();
    return false;
  }

  /**
   * The call as the service holds it, with the stream's serializing context: everything written to
   * the call (responses from the service's threads, the gate's refusal from the transport's) runs in
   * that context, one at a time and in order, as grpc's calls require, with no lock held. Once the
   * gate or the transport has closed it, the service's writes are dropped: a call refuses a second
   * close.
   */
  static final class GatedCall<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(GatedCall.class);

    final SynchronizationContext context = new SynchronizationContext(
        (thread, e) -> log.error("writing to an xDS stream failed", e));
    private boolean closed; // confined to context
    /** Requests since the last response: counted on the transport thread, reset in the context. */
    final AtomicInteger unanswered;
    private final GatedStream<Q, A> gate;

    GatedCall(ServerCall<Q, A> call, AtomicInteger unanswered, GatedStream<Q, A> gate) {
      super(call);
      this.unanswered = unanswered;
      this.gate = gate;
    }

    /**
     * Whether a stream that now subscribes to {@code count} names of {@code typeUrl} is within
     * {@code maxNamesPerSubscription}; if not, it is refused (in the stream's context, as the
     * request that grew it is handled). The gate keeps no copy of the names: the service has them.
     */
    boolean admitsNames(String typeUrl, int count) {
      return gate.admitNames(typeUrl, count);
    }

    void closeOnce(Status status) {
      close(status, new Metadata());
    }

    void closedByTransport() {
      context.execute(() -> closed = true);
    }

    @Override
    public void sendMessage(A message) {
      context.execute(() -> sendInContext(message));
    }

    /** Whether the gate or the transport closed the call; asked in {@link #context}. */
    boolean closedInContext() {
      context.throwIfNotInThisSynchronizationContext();
      return closed;
    }

    /**
     * {@link #sendMessage} for a caller already running in {@link #context} (the ADS service's
     * writes, drained there): the same write without queueing it a second time.
     */
    void sendInContext(A message) {
      context.throwIfNotInThisSynchronizationContext();
      if (!closed) {
        unanswered.set(0);
        super.sendMessage(message);
      }
    }

    @Override
    public void close(Status status, Metadata trailers) {
      context.execute(() -> {
        if (!closed) {
          closed = true;
          super.close(status, trailers);
        }
      });
    }
  }
}
