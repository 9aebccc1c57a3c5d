package io.signalbox.controlplane.fleet;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A raw SotW ADS client over real gRPC that subscribes to one type and ACKs or NACKs on demand. */
final class AdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final BlockingQueue<DiscoveryResponse> unread = new LinkedBlockingQueue<>();
  private final StreamObserver<DiscoveryRequest> requests;

  AdsClient(int port, String nodeId, String typeUrl) {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override public void onNext(DiscoveryResponse r) { unread.add(r); }
      @Override public void onError(Throwable t) {}
      @Override public void onCompleted() {}
    });
    send(DiscoveryRequest.newBuilder()
        .setNode(Node.newBuilder().setId(nodeId).setCluster("test-fleet").setUserAgentName("raw-ads"))
        .setTypeUrl(typeUrl).build());
  }

  /** The next response, waiting up to 10 s. */
  DiscoveryResponse next() throws InterruptedException {
    DiscoveryResponse r = unread.poll(10, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no xDS response within 10 s");
    }
    return r;
  }

  void ack(DiscoveryResponse response) {
    send(DiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl()).setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce()).build());
  }

  void nack(DiscoveryResponse response, String acceptedVersion, String message) {
    send(DiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl()).setVersionInfo(acceptedVersion)
        .setResponseNonce(response.getNonce())
        .setErrorDetail(Status.newBuilder().setCode(3).setMessage(message)).build());
  }

  private synchronized void send(DiscoveryRequest request) {
    requests.onNext(request);
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
