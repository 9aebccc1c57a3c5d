package io.signalbox.controlplane.demo;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A state-of-the-world ADS client that ACKs every response {@code delay} late: a proxy on a busy
 * host, the kind that shows up as lag on the dashboard and that {@code drain --wait} waits for.
 * It subscribes to every cluster and to one cluster's endpoints, and sends no traffic.
 *
 * <p>grpc-xds ACKs as soon as it has applied a response and has no hook to delay that, hence a
 * raw ADS stream. All its sending runs on one thread, so requests never interleave on the stream.
 */
public final class SlowAckingClient implements AutoCloseable {

  private static final Duration RECONNECT_AFTER = Duration.ofSeconds(1);

  private final ManagedChannel channel;
  private final Node node;
  private final String cluster;
  private final Duration delay;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("demo-slow-acks").setDaemon(true).build());
  /** The open stream; only touched on {@link #thread}. */
  private StreamObserver<DiscoveryRequest> requests;

  private SlowAckingClient(int xdsPort, Node node, String cluster, Duration delay) {
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", xdsPort).usePlaintext().build();
    this.node = node;
    this.cluster = cluster;
    this.delay = delay;
  }

  /** Opens the stream to {@code 127.0.0.1:xdsPort} as node {@code id} in group {@code group}. */
  public static SlowAckingClient start(int xdsPort, String id, String group, String cluster, Duration delay) {
    Node node = Node.newBuilder().setId(id).setCluster(group).setUserAgentName("signalbox-demo-slow-acks").build();
    SlowAckingClient client = new SlowAckingClient(xdsPort, node, cluster, delay);
    client.thread.execute(client::open);
    return client;
  }

  private void open() {
    requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        thread.schedule(() -> ack(response), delay.toMillis(), TimeUnit.MILLISECONDS);
      }

      @Override
      public void onError(Throwable t) {
        reopenLater();
      }

      @Override
      public void onCompleted() {
        reopenLater();
      }
    });
    // The first request of each type carries the node; the server keeps it for the stream.
    requests.onNext(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(XdsType.CLUSTER.typeUrl()).build());
    requests.onNext(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(XdsType.ENDPOINT.typeUrl())
        .addResourceNames(cluster).build());
  }

  private void reopenLater() {
    // A GOAWAY (xds.maxConnectionAge) or a server restart ends the stream; a real client reconnects.
    if (!thread.isShutdown()) {
      thread.schedule(this::open, RECONNECT_AFTER.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void ack(DiscoveryResponse response) {
    DiscoveryRequest.Builder ack = DiscoveryRequest.newBuilder()
        .setTypeUrl(response.getTypeUrl())
        .setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce());
    if (response.getTypeUrl().equals(XdsType.ENDPOINT.typeUrl())) {
      ack.addResourceNames(cluster);
    }
    requests.onNext(ack.build());
  }

  @Override
  public void close() {
    thread.shutdownNow();
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
