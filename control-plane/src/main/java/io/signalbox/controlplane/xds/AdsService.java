package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.BindableService;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.protobuf.ProtoUtils;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aggregated discovery (state of the world and delta) on grpc-java: Signalbox's own stream engine.
 * Requests are parsed by protobuf on the transport thread (the server runs with a direct executor,
 * so that is the connection's event loop) and handled in the stream's serializing context: handed
 * to {@link StreamTracker}, and the type a request opens answered by {@link SnapshotWatcher}. Responses are written pre-encoded
 * ({@link EncodedResponse#MARSHALLER}): the service definition is grpc's own for the ADS methods
 * with the response marshaller swapped, so on the wire nothing differs from a generated service.
 *
 * <p>Each call reads one request at a time ({@code request(1)} after each is handled): a client
 * that sends faster than the server handles its requests is held back by HTTP/2 flow control, not
 * buffered without bound.
 */
final class AdsService implements BindableService {

  private static final Logger log = LoggerFactory.getLogger(AdsService.class);

  static final MethodDescriptor<DiscoveryRequest, EncodedResponse.Stamped> SOTW =
      AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod().toBuilder(
          ProtoUtils.marshaller(DiscoveryRequest.getDefaultInstance()), EncodedResponse.MARSHALLER).build();
  static final MethodDescriptor<DeltaDiscoveryRequest, EncodedResponse.Stamped> DELTA =
      AggregatedDiscoveryServiceGrpc.getDeltaAggregatedResourcesMethod().toBuilder(
          ProtoUtils.marshaller(DeltaDiscoveryRequest.getDefaultInstance()), EncodedResponse.MARSHALLER).build();

  private final StreamTracker tracker;
  private final SnapshotWatcher watcher;

  AdsService(StreamTracker tracker, SnapshotWatcher watcher) {
    this.tracker = tracker;
    this.watcher = watcher;
  }

  @Override
  public ServerServiceDefinition bindService() {
    return ServerServiceDefinition.builder(AggregatedDiscoveryServiceGrpc.SERVICE_NAME)
        .addMethod(SOTW, handler(false, tracker::received))
        .addMethod(DELTA, handler(true, tracker::received))
        .build();
  }

  private <Q> ServerCallHandler<Q, EncodedResponse.Stamped> handler(boolean delta,
      BiFunction<XdsStream, Q, XdsType> received) {
    return (call, headers) -> {
      // The gate's call carries the stream's serializing context; without the gate, one of its own.
      GatedStream.GatedCall<?, ?> gated = call instanceof GatedStream.GatedCall<?, ?> g ? g : null;
      SynchronizationContext context = gated != null ? gated.context
          : new SynchronizationContext((thread, e) -> log.error("writing to an xDS stream failed", e));
      XdsStream stream = tracker.open(delta, context, new Writer<>(call, gated));
      call.request(1);
      return new ServerCall.Listener<>() {
        private boolean ended;

        @Override
        public void onMessage(Q request) {
          stream.run(() -> handle(request));
        }

        /** One request, in the stream's context: the tracker reads it, the watcher answers it. */
        private void handle(Q request) {
          XdsType type;
          try {
            type = received.apply(stream, request);
            if (type != null && gated != null && !gated.admitsNames(type.typeUrl(), stream.subscribedCount(type))) {
              return; // refused: the gate closed the stream and cancels it here
            }
            if (type != null) {
              watcher.attach(stream, type);
            }
          } catch (RuntimeException e) {
            // A bug, not the client's fault: the stream ends with it rather than waiting forever.
            log.error("xDS stream {} failed handling a request", stream.id, e);
            call.close(Status.INTERNAL.withDescription("signalbox: " + e), new Metadata());
            return;
          }
          call.request(1);
        }

        @Override
        public void onHalfClose() {
          // The client will send nothing more: the stream ends, as any ADS stream ends, with OK.
          end();
          context.execute(() -> call.close(Status.OK, new Metadata()));
        }

        @Override
        public void onCancel() {
          end();
        }

        @Override
        public void onComplete() {
          end();
        }

        private void end() {
          if (!ended) {
            ended = true;
            tracker.closed(stream);
          }
        }
      };
    };
  }

  /**
   * Writes one stream's responses, in its context. Headers go with the first response, not when the
   * stream opens: a stream refused before it was answered (a request over the size limit, which
   * grpc refuses itself) then ends with trailers only, and the client reads why.
   */
  private static final class Writer<Q> implements java.util.function.Consumer<EncodedResponse.Stamped> {
    private final ServerCall<Q, EncodedResponse.Stamped> call;
    // The same call when the gate wraps it: written to in its context directly, not queued again.
    private final GatedStream.GatedCall<?, ?> gated;
    private boolean headersSent; // confined to the stream's context

    Writer(ServerCall<Q, EncodedResponse.Stamped> call, GatedStream.GatedCall<?, ?> gated) {
      this.call = call;
      this.gated = gated;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void accept(EncodedResponse.Stamped response) {
      if (gated != null && gated.closedInContext()) {
        return; // refused or cancelled: a release may still have queued a response for it
      }
      if (!headersSent) {
        headersSent = true;
        call.sendHeaders(new Metadata());
      }
      if (gated != null) {
        // gated is call itself (see handler), so its message type is Stamped.
        ((GatedStream.GatedCall<Q, EncodedResponse.Stamped>) gated).sendInContext(response);
      } else {
        call.sendMessage(response);
      }
    }
  }
}
