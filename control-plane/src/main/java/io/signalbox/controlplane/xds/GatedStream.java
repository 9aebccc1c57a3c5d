package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.tls.NodeIdentity;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One ADS stream as {@link StreamGate} sees it: each request is checked before java-control-plane
 * gets it. A refused stream is closed with a status naming the rule, and java-control-plane is told
 * the stream was cancelled, so it and {@link StreamTracker} let go of it as of a client that left.
 *
 * <p>The listener's methods run one at a time on the transport thread (the server uses a direct
 * executor), so the fields below need no lock; {@link GatedCall} is also used by the send threads.
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
  // Delta only: what the stream subscribes to per type, since each request says only what changed.
  // Created on a delta stream's first request: SotW and LRS streams never need it.
  private Map<XdsType, Set<String>> deltaNames;

  GatedStream(StreamGate gate, ServerCall<Q, A> call, Peer peer, StreamGate.Connection connection) {
    this.gate = gate;
    this.call = new GatedCall<>(call, new AtomicInteger());
    this.peer = peer;
    this.connection = connection;
  }

  ServerCall.Listener<Q> start(ServerCallHandler<Q, A> next, Metadata headers) {
    delegate = next.startCall(call, headers);
    return new ServerCall.Listener<>() {
      @Override
      public void onMessage(Q message) {
        if (!refused && admit(message)) {
          delegate.onMessage(withKnownNonce(message));
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
          // xds.limits.maxRequestBytes, and sends that status itself); java-control-plane answers a
          // cancel by closing with CANCELLED "client cancelled", which must not replace grpc's status.
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

  /** Whether {@code message} may go on to java-control-plane; if not, the stream is refused. */
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
      return admitNode(r.hasNode() ? r.getNode() : null)
          && admitNames(r.getTypeUrl(), r.getResourceNamesCount());
    }
    if (message instanceof DeltaDiscoveryRequest r) {
      if (!admitNode(r.hasNode() ? r.getNode() : null)) {
        return false;
      }
      XdsType type = XdsType.fromTypeUrl(r.getTypeUrl());
      if (type == null) {
        return true;
      }
      if (deltaNames == null) {
        deltaNames = new HashMap<>();
      }
      Set<String> names = deltaNames.computeIfAbsent(type, t -> new HashSet<>());
      for (String name : r.getResourceNamesUnsubscribeList()) {
        names.remove(name);
      }
      for (String name : r.getResourceNamesSubscribeList()) {
        names.add(name);
        if (names.size() > gate.limits.maxNamesPerSubscription()) {
          return admitNames(r.getTypeUrl(), names.size());
        }
      }
    }
    return true;
  }

  /**
   * A delta request whose nonce names no response of its type still waiting for an answer, with
   * that nonce removed. java-control-plane looks an ACK's nonce up among those responses and, for
   * one it never sent (made up, repeated, another type's, or 1 MiB of garbage), throws a
   * NullPointerException that ends the stream as UNKNOWN. Such a nonce answers nothing, as a stale
   * nonce answers nothing in the xDS protocol; the rest of the request (names it subscribes to or
   * drops) still counts, since delta requests say only what changed. SotW needs none of this: the
   * library compares the nonce with the last one sent and ignores a request that does not match.
   */
  @SuppressWarnings("unchecked")
  private Q withKnownNonce(Q message) {
    if (message instanceof DeltaDiscoveryRequest r && !r.getResponseNonce().isEmpty()) {
      Set<String> waiting = call.deltaNonces.get(r.getTypeUrl());
      if (waiting == null || !waiting.remove(r.getResponseNonce())) {
        return (Q) r.toBuilder().clearResponseNonce().build();
      }
    }
    return message;
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
        return refuse(Refusal.Reason.NODE_CHANGED, Status.PERMISSION_DENIED, describe(node),
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
    // java-control-plane (and through its callbacks the tracker) releases the stream as cancelled.
    delegate.onCancel();
    return false;
  }

  /**
   * The call as java-control-plane holds it. Once the gate has closed it, the library's own close
   * and any response still on its way are dropped: grpc's calls refuse a second close, and a
   * call's methods must not run on two threads at once (the gate runs on the transport thread, the
   * library sends from the stream's executor: that same event loop, or a pool thread for a stream
   * started elsewhere, see StreamExecutors), hence the lock.
   */
  static final class GatedCall<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
    private boolean closed; // guarded by this
    /** Requests since the last response: counted on the transport thread, reset by the send threads. */
    final AtomicInteger unanswered;
    /**
     * Delta only, per type URL: the nonces of responses sent and not yet ACKed or NACKed, the same
     * set java-control-plane keeps; added here before the client can see them, removed by the gate.
     */
    final Map<String, Set<String>> deltaNonces = new ConcurrentHashMap<>();

    GatedCall(ServerCall<Q, A> call, AtomicInteger unanswered) {
      super(call);
      this.unanswered = unanswered;
    }

    synchronized void closeOnce(Status status) {
      close(status, new Metadata());
    }

    synchronized void closedByTransport() {
      closed = true;
    }

    @Override
    public synchronized void sendMessage(A message) {
      if (!closed) {
        unanswered.set(0);
        if (message instanceof DeltaDiscoveryResponse r) {
          deltaNonces.computeIfAbsent(r.getTypeUrl(), t -> ConcurrentHashMap.newKeySet()).add(r.getNonce());
        }
        super.sendMessage(message);
      }
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (!closed) {
        closed = true;
        super.close(status, trailers);
      }
    }
  }
}
