package io.signalbox.controlplane.admin;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A raw SotW ADS client over real gRPC that subscribes to every cluster and to the endpoints of
 * {@code greeter}, and answers each response at once: an ACK, or, while {@link #rejectWith} is set,
 * a NACK carrying that message.
 */
public final class AnsweringAdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final StreamObserver<DiscoveryRequest> requests;
  private final Map<String, String> accepted = new ConcurrentHashMap<>();
  public volatile String rejectWith;

  public AnsweringAdsClient(int port, String nodeId, String group) {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    Node node = Node.newBuilder().setId(nodeId).setCluster(group).build();
    requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        answer(response);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    });
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(XdsType.CLUSTER.typeUrl()).build());
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(XdsType.ENDPOINT.typeUrl())
        .addResourceNames("greeter").build());
  }

  private void answer(DiscoveryResponse response) {
    DiscoveryRequest.Builder reply = DiscoveryRequest.newBuilder()
        .setTypeUrl(response.getTypeUrl())
        .setResponseNonce(response.getNonce());
    if (response.getTypeUrl().equals(XdsType.ENDPOINT.typeUrl())) {
      reply.addResourceNames("greeter");
    }
    String message = rejectWith;
    if (message == null) {
      accepted.put(response.getTypeUrl(), response.getVersionInfo());
    } else {
      reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage(message));
    }
    send(reply.setVersionInfo(accepted.getOrDefault(response.getTypeUrl(), "")).build());
  }

  /** The version of {@code typeUrl} this client last ACKed, or null. */
  public String accepted(String typeUrl) {
    return accepted.get(typeUrl);
  }

  private synchronized void send(DiscoveryRequest request) {
    requests.onNext(request);
  }

  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      requests.onCompleted();
    }
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
