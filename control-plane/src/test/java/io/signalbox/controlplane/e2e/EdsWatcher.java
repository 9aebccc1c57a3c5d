package io.signalbox.controlplane.e2e;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.DropRules;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A raw state-of-the-world ADS client (adapted from the xds package's {@code RecordingAdsClient})
 * that subscribes to one cluster's endpoints and ACKs every response, the way a well-behaved proxy
 * does, so the server keeps pushing newer epochs to it. Records what it received, in order.
 */
final class EdsWatcher implements AutoCloseable {

  /** One EDS response as the client saw it: its version and the endpoints it offers new work. */
  record Received(String version, Set<String> endpoints) {}

  /** One EDS response's assignment of the cluster, whole: for what it says beyond the endpoints. */
  record Assignment(String version, ClusterLoadAssignment assignment) {
    /** The share its {@code drop_overloads} drop as {@code category}, in parts per million; 0 if none. */
    long dropPerMillion(String category) {
      return assignment.getPolicy().getDropOverloadsList().stream().filter(d -> d.getCategory().equals(category))
          .mapToLong(d -> DropRules.perMillion(d.getDropPercentage())).findFirst().orElse(0);
    }
  }

  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  private final ManagedChannel channel;
  private final String cluster;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<Assignment> assignments = new CopyOnWriteArrayList<>();
  private final StreamObserver<DiscoveryRequest> requests;
  private volatile Throwable error;

  private EdsWatcher(int xdsPort, String nodeId, String cluster) {
    this.cluster = cluster;
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", xdsPort).usePlaintext().build();
    Node node = Node.newBuilder().setId(nodeId).setCluster("e2e").build();
    this.requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        onResponse(response);
      }

      @Override
      public void onError(Throwable t) {
        error = t;
      }

      @Override
      public void onCompleted() {}
    });
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS).addResourceNames(cluster).build());
  }

  /** Connects and subscribes to {@code cluster}'s ClusterLoadAssignment. */
  static EdsWatcher watch(int xdsPort, String nodeId, String cluster) {
    return new EdsWatcher(xdsPort, nodeId, cluster);
  }

  private void onResponse(DiscoveryResponse response) {
    Set<String> endpoints = new TreeSet<>();
    for (var any : response.getResourcesList()) {
      try {
        ClusterLoadAssignment cla = any.unpack(ClusterLoadAssignment.class);
        if (cla.getClusterName().equals(cluster)) {
          assignments.add(new Assignment(response.getVersionInfo(), cla));
          for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
            for (LbEndpoint lb : locality.getLbEndpointsList()) {
              if (lb.getHealthStatus() == io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING) {
                // Still held while it drains (it left its source); it gets no new work.
                continue;
              }
              var address = lb.getEndpoint().getAddress().getSocketAddress();
              endpoints.add(address.getAddress() + ":" + address.getPortValue());
            }
          }
        }
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        error = e;
      }
    }
    received.add(new Received(response.getVersionInfo(), endpoints));
    send(DiscoveryRequest.newBuilder().setTypeUrl(EDS).setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce()).addResourceNames(cluster).build());
  }

  private synchronized void send(DiscoveryRequest request) {
    requests.onNext(request);
  }

  /** Every response so far, oldest first. */
  List<Received> received() {
    streamIntact();
    return List.copyOf(received);
  }

  /** The cluster's assignment in every response so far, oldest first. */
  List<Assignment> assignments() {
    streamIntact();
    return List.copyOf(assignments);
  }

  private void streamIntact() {
    if (error != null) {
      throw new AssertionError("xDS stream failed", error);
    }
  }

  /** The newest response, or null before the first. */
  Received latest() {
    List<Received> all = received();
    return all.isEmpty() ? null : all.get(all.size() - 1);
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
