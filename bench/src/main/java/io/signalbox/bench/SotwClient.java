package io.signalbox.bench;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** A state-of-the-world ADS client. */
final class SotwClient implements AdsClient {

  private final ClientState state;
  private final ManagedChannel channel;
  private final Node node;
  private final Map<String, List<String>> names;
  private final ScheduledExecutorService scheduler;
  private final AtomicInteger restarts = new AtomicInteger();
  // Guards sends on the current stream: the driver's initial requests may overlap the first ACKs.
  private final Object sendLock = new Object();
  private StreamObserver<DiscoveryRequest> requests;
  private boolean nodeSent;

  SotwClient(ClientState state, ManagedChannel channel, Subscriptions subscriptions,
      ScheduledExecutorService scheduler) {
    this.state = state;
    this.channel = channel;
    this.node = AdsClient.node(state.id, state.zone);
    this.names = Map.of(
        ClientState.LDS, subscriptions.listeners(),
        ClientState.RDS, subscriptions.routes(),
        ClientState.CDS, List.of(), // wildcard
        ClientState.EDS, subscriptions.clusters());
    this.scheduler = scheduler;
  }

  @Override
  public void start() {
    synchronized (sendLock) {
      nodeSent = false;
      requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new Responses());
      for (String type : List.of(ClientState.CDS, ClientState.EDS, ClientState.LDS, ClientState.RDS)) {
        send(request(type, "", ""));
      }
    }
  }

  private DiscoveryRequest request(String type, String version, String nonce) {
    DiscoveryRequest.Builder b = DiscoveryRequest.newBuilder()
        .setTypeUrl(type)
        .setVersionInfo(version)
        .setResponseNonce(nonce)
        .addAllResourceNames(names.get(type));
    if (!nodeSent) {
      b.setNode(node);
      nodeSent = true;
    }
    return b.build();
  }

  private void send(DiscoveryRequest request) {
    requests.onNext(request);
  }

  @Override
  public ClientState state() {
    return state;
  }

  @Override
  public ManagedChannel channel() {
    return channel;
  }

  private final class Responses implements StreamObserver<DiscoveryResponse> {
    @Override
    public void onNext(DiscoveryResponse response) {
      long now = System.nanoTime();
      String type = response.getTypeUrl();
      state.received(type, response.getSerializedSize(), response.getResourcesCount());
      for (Any any : response.getResourcesList()) {
        state.resource(type, any, now);
      }
      synchronized (sendLock) {
        send(request(type, response.getVersionInfo(), response.getNonce()));
      }
    }

    @Override
    public void onError(Throwable t) {
      AdsClient.restartLater(SotwClient.this, restarts, scheduler);
    }

    @Override
    public void onCompleted() {
      AdsClient.restartLater(SotwClient.this, restarts, scheduler);
    }
  }
}
