package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A raw ADS client over real gRPC that records every response it receives, in order. */
final class RecordingAdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  final List<DiscoveryResponse> sotw = new CopyOnWriteArrayList<>();
  final List<DeltaDiscoveryResponse> delta = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Object> unread = new LinkedBlockingQueue<>();
  private StreamObserver<DiscoveryRequest> sotwRequests;
  private StreamObserver<DeltaDiscoveryRequest> deltaRequests;
  volatile Throwable error;

  RecordingAdsClient(int port) {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  static Node node(String id) {
    return Node.newBuilder().setId(id).setCluster("test-fleet").build();
  }

  RecordingAdsClient openSotw() {
    sotwRequests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override public void onNext(DiscoveryResponse r) { sotw.add(r); unread.add(r); }
      @Override public void onError(Throwable t) { error = t; }
      @Override public void onCompleted() {}
    });
    return this;
  }

  RecordingAdsClient openDelta() {
    deltaRequests = AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(new StreamObserver<>() {
      @Override public void onNext(DeltaDiscoveryResponse r) { delta.add(r); unread.add(r); }
      @Override public void onError(Throwable t) { error = t; }
      @Override public void onCompleted() {}
    });
    return this;
  }

  void send(DiscoveryRequest request) {
    synchronized (this) {
      sotwRequests.onNext(request);
    }
  }

  void send(DeltaDiscoveryRequest request) {
    synchronized (this) {
      deltaRequests.onNext(request);
    }
  }

  /** The next response not yet read, waiting up to 10 s. */
  @SuppressWarnings("unchecked")
  <T> T next() throws InterruptedException {
    Object r = unread.poll(10, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no xDS response within 10 s; received so far: " + (sotw.size() + delta.size()));
    }
    return (T) r;
  }

  /** A request that ACKs {@code response} and keeps the given subscription. */
  static DiscoveryRequest ack(DiscoveryResponse response, List<String> names) {
    return DiscoveryRequest.newBuilder()
        .setTypeUrl(response.getTypeUrl())
        .setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce())
        .addAllResourceNames(names)
        .build();
  }

  int unreadCount() {
    return unread.size();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
