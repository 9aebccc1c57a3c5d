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
public final class RecordingAdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  public final List<DiscoveryResponse> sotw = new CopyOnWriteArrayList<>();
  public final List<DeltaDiscoveryResponse> delta = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Object> unread = new LinkedBlockingQueue<>();
  private StreamObserver<DiscoveryRequest> sotwRequests;
  private StreamObserver<DeltaDiscoveryRequest> deltaRequests;
  volatile Throwable error;

  /** Decides, for a response, the NACK message to send, or null to ACK it. */
  public interface Verdict {
    String nackMessage(DiscoveryResponse response);
  }

  private final java.util.Map<String, List<String>> names = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Verdict autoAnswer;

  /** From now on, answer every state-of-the-world response at once: ACK, or NACK when {@code verdict} says so. */
  public RecordingAdsClient autoAnswer(Verdict verdict) {
    autoAnswer = verdict;
    return this;
  }

  /** Subscribes (state of the world) and remembers the names, so auto-answers keep the subscription. */
  public void subscribe(io.envoyproxy.envoy.config.core.v3.Node node, String typeUrl, List<String> resourceNames) {
    names.put(typeUrl, resourceNames);
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(typeUrl).addAllResourceNames(resourceNames).build());
  }

  private void answer(DiscoveryResponse r) {
    Verdict verdict = autoAnswer;
    if (verdict == null) {
      return;
    }
    String nack = verdict.nackMessage(r);
    DiscoveryRequest.Builder req = DiscoveryRequest.newBuilder().setTypeUrl(r.getTypeUrl())
        .setResponseNonce(r.getNonce()).addAllResourceNames(names.getOrDefault(r.getTypeUrl(), List.of()));
    if (nack == null) {
      acceptedVersions.put(r.getTypeUrl(), r.getVersionInfo());
      req.setVersionInfo(r.getVersionInfo());
    } else {
      req.setVersionInfo(acceptedVersions.getOrDefault(r.getTypeUrl(), ""))
          .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage(nack));
    }
    send(req.build());
  }

  private final java.util.Map<String, String> acceptedVersions = new java.util.concurrent.ConcurrentHashMap<>();

  public RecordingAdsClient(int port) {
    this(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
  }

  /** Over a channel of the caller's making (TLS, another client certificate). */
  public RecordingAdsClient(ManagedChannel channel) {
    this.channel = channel;
  }

  /** How the stream ended with an error, or null while it is open (or ended cleanly). */
  public Throwable error() {
    return error;
  }

  public static Node node(String id) {
    return Node.newBuilder().setId(id).setCluster("test-fleet").build();
  }

  public RecordingAdsClient openSotw() {
    sotwRequests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override public void onNext(DiscoveryResponse r) { sotw.add(r); unread.add(r); answer(r); }
      @Override public void onError(Throwable t) { error = t; }
      @Override public void onCompleted() {}
    });
    return this;
  }

  public RecordingAdsClient openDelta() {
    deltaRequests = AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(new StreamObserver<>() {
      @Override public void onNext(DeltaDiscoveryResponse r) { delta.add(r); unread.add(r); }
      @Override public void onError(Throwable t) { error = t; }
      @Override public void onCompleted() {}
    });
    return this;
  }

  public void send(DiscoveryRequest request) {
    synchronized (this) {
      sotwRequests.onNext(request);
    }
  }

  public void send(DeltaDiscoveryRequest request) {
    synchronized (this) {
      deltaRequests.onNext(request);
    }
  }

  /** The next response not yet read, waiting up to 10 s. */
  @SuppressWarnings("unchecked")
  public <T> T next() throws InterruptedException {
    Object r = unread.poll(10, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no xDS response within 10 s; received so far: " + (sotw.size() + delta.size()));
    }
    return (T) r;
  }

  /** A request that ACKs {@code response} and keeps the given subscription. */
  public static DiscoveryRequest ack(DiscoveryResponse response, List<String> names) {
    return DiscoveryRequest.newBuilder()
        .setTypeUrl(response.getTypeUrl())
        .setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce())
        .addAllResourceNames(names)
        .build();
  }

  public int unreadCount() {
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
