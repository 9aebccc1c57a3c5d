package io.signalbox.controlplane.xds;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.tls.NodeIdentity;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The xDS server's edge: every ADS and LRS stream passes here before the service sees it. Here a
 * stream is refused when the connection has too many, when mutual TLS is on and the client showed
 * no certificate, and (per request, see {@link GatedStream}) when a request is malformed, its node
 * is not the one its certificate names or changes mid-stream, or it subscribes to or queues more
 * than its limits. The status a refused client reads is chosen here and nowhere else.
 */
final class StreamGate implements ServerInterceptor {

  static final String MAX_STREAMS_PER_CONNECTION = "maxStreamsPerConnection";
  static final String MAX_NAMES_PER_SUBSCRIPTION = "maxNamesPerSubscription";
  static final String MAX_PENDING_REQUESTS = "maxPendingRequests";
  static final List<String> LIMITS = List.of(MAX_STREAMS_PER_CONNECTION, MAX_NAMES_PER_SUBSCRIPTION,
      MAX_PENDING_REQUESTS);

  /** Per connection: how many of its streams are open. Set by {@link #transportFilter()}. */
  static final Attributes.Key<Connection> CONNECTION = Attributes.Key.create("signalbox.xds.connection");

  static final class Connection {
    final AtomicInteger streams = new AtomicInteger();
  }

  final XdsLimitsSettings limits;
  final boolean clientCertificates;
  final NodeIdentity identity;
  final Refusals refusals;

  /**
   * @param clientCertificates whether mutual TLS is on: a stream without a client certificate is refused
   * @param identity the node identity template, or null when nodes are not bound to certificates
   */
  StreamGate(XdsLimitsSettings limits, boolean clientCertificates, NodeIdentity identity, Refusals refusals) {
    this.limits = limits;
    this.clientCertificates = clientCertificates;
    this.identity = identity;
    this.refusals = refusals;
  }

  /** Gives every connection its own stream count. */
  ServerTransportFilter transportFilter() {
    return new ServerTransportFilter() {
      @Override
      public Attributes transportReady(Attributes transportAttrs) {
        return transportAttrs.toBuilder().set(CONNECTION, new Connection()).build();
      }
    };
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Peer peer = Peer.of(call.getAttributes());
    if (clientCertificates && !peer.hasCertificate()) {
      // The handshake lets a connection without a certificate through (ClientAuth.OPTIONAL) so that
      // the client reads why, and the refusal is audited with its address; no stream gets further.
      String message = "a client certificate is required (xds.tls.clientCaFile is set); the connection from "
          + peer.address() + " presented none";
      refusals.refuse(Refusal.Reason.NO_CLIENT_CERTIFICATE, peer.address(), null, null, message);
      return refused(call, Status.UNAUTHENTICATED.withDescription(message));
    }
    Connection connection = call.getAttributes().get(CONNECTION);
    if (connection != null && connection.streams.incrementAndGet() > limits.maxStreamsPerConnection()) {
      connection.streams.decrementAndGet();
      String message = "too many xDS streams on one connection: " + limits.maxStreamsPerConnection()
          + " are open (xds.limits." + MAX_STREAMS_PER_CONNECTION + ")";
      refusals.exceeded(MAX_STREAMS_PER_CONNECTION, peer.address(), null, message);
      return refused(call, Status.RESOURCE_EXHAUSTED.withDescription(message));
    }
    return new GatedStream<>(this, call, peer, connection).start(next, headers);
  }

  private static <Q, A> ServerCall.Listener<Q> refused(ServerCall<Q, A> call, Status status) {
    call.close(status, new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
