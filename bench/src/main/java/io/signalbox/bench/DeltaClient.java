package io.signalbox.bench;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** An incremental (delta) ADS client. */
final class DeltaClient implements AdsClient {

  private final ClientState state;
  private final ManagedChannel channel;
  private final Node node;
  private final Map<String, List<String>> names;
  private final ScheduledExecutorService scheduler;
  private final AtomicInteger restarts = new AtomicInteger();
  // Guards sends on the current stream: the driver's initial requests may overlap the first ACKs.
  private final Object sendLock = new Object();
  private StreamObserver<DeltaDiscoveryRequest> requests;

  DeltaClient(ClientState state, ManagedChannel channel, Subscriptions subscriptions,
      ScheduledExecutorService scheduler) {
    this.state = state;
    this.channel = channel;
    this.node = AdsClient.node(state.id, state.zone);
    this.names = Map.of(
        ClientState.LDS, subscriptions.listeners(),
        ClientState.RDS, subscriptions.routes(),
        ClientState.CDS, List.of(), // the legacy empty first request: wildcard
        ClientState.EDS, subscriptions.clusters());
    this.scheduler = scheduler;
  }

  @Override
  public void start() {
    synchronized (sendLock) {
      requests = AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(new Responses());
      boolean first = true;
      for (String type : List.of(ClientState.CDS, ClientState.EDS, ClientState.LDS, ClientState.RDS)) {
        DeltaDiscoveryRequest.Builder b = DeltaDiscoveryRequest.newBuilder()
            .setTypeUrl(type)
            .addAllResourceNamesSubscribe(names.get(type));
        if (first) {
          b.setNode(node);
          first = false;
        }
        requests.onNext(b.build());
      }
    }
  }

  @Override
  public ClientState state() {
    return state;
  }

  @Override
  public ManagedChannel channel() {
    return channel;
  }

  private final class Responses implements StreamObserver<DeltaDiscoveryResponse> {
    @Override
    public void onNext(DeltaDiscoveryResponse response) {
      long now = System.nanoTime();
      String type = response.getTypeUrl();
      state.received(type, response.getSerializedSize(), response.getResourcesCount());
      for (Resource r : response.getResourcesList()) {
        state.resource(type, r.getResource(), now);
      }
      synchronized (sendLock) {
        requests.onNext(DeltaDiscoveryRequest.newBuilder()
            .setTypeUrl(type)
            .setResponseNonce(response.getNonce())
            .build());
      }
    }

    @Override
    public void onError(Throwable t) {
      AdsClient.restartLater(DeltaClient.this, restarts, scheduler);
    }

    @Override
    public void onCompleted() {
      AdsClient.restartLater(DeltaClient.this, restarts, scheduler);
    }
  }
}
