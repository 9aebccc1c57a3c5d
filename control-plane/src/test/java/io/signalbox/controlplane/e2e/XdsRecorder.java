package io.signalbox.controlplane.e2e;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A raw state-of-the-world ADS client for the drills: every Cluster (wildcard) and the
 * ClusterLoadAssignments of the named clusters, every response ACKed (as a well-behaved proxy
 * does) and recorded with what it says, so a drill can check what a client was offered, in order.
 * EDS responses may carry only the assignments that changed, so what the client holds is the
 * newest assignment of each cluster.
 */
final class XdsRecorder implements AutoCloseable {

  /** One endpoint as offered: its health status ({@code HEALTHY}, {@code DRAINING}...) and weight. */
  record Offered(String health, int weight) {}

  /** One response as received, in order: its type and the epoch its version names. */
  record Response(String typeUrl, String version, long epoch) {}

  /** One cluster's assignment as one response carried it. */
  record Assignment(long epoch, String cluster, Map<String, Offered> endpoints) {

    /** The endpoints offered new work: all but DRAINING ones. */
    Set<String> serving() {
      Set<String> out = new TreeSet<>();
      endpoints.forEach((k, v) -> {
        if (!v.health().equals("DRAINING")) {
          out.add(k);
        }
      });
      return out;
    }
  }

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();

  private final ManagedChannel channel;
  private final List<String> clusters;
  private final StreamObserver<DiscoveryRequest> requests;
  private final List<Assignment> assignments = new CopyOnWriteArrayList<>();
  private final List<Response> history = new CopyOnWriteArrayList<>();
  private final Map<String, List<Long>> connectTimeouts = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile long newestEpoch;
  private volatile Throwable error;

  private XdsRecorder(int xdsPort, String nodeId, List<String> clusters) {
    this.clusters = List.copyOf(clusters);
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", xdsPort).usePlaintext().build();
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
    Node node = Node.newBuilder().setId(nodeId).setCluster("drill").build();
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(CDS).build());
    send(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(EDS).addAllResourceNames(this.clusters).build());
  }

  static XdsRecorder connect(int xdsPort, String nodeId, List<String> clusters) {
    return new XdsRecorder(xdsPort, nodeId, clusters);
  }

  /** The epoch a version string names: {@code 42}, or {@code 42.1} for content adjusted for this client. */
  static long epochOf(String version) {
    int dot = version.indexOf('.');
    return Long.parseLong(dot < 0 ? version : version.substring(0, dot));
  }

  private void onResponse(DiscoveryResponse response) {
    long epoch = epochOf(response.getVersionInfo());
    newestEpoch = Math.max(newestEpoch, epoch);
    history.add(new Response(response.getTypeUrl(), response.getVersionInfo(), epoch));
    try {
      for (var any : response.getResourcesList()) {
        if (response.getTypeUrl().equals(CDS)) {
          Cluster c = any.unpack(Cluster.class);
          connectTimeouts.computeIfAbsent(c.getName(), n -> new CopyOnWriteArrayList<>())
              .add(c.getConnectTimeout().getSeconds() * 1000 + c.getConnectTimeout().getNanos() / 1_000_000);
        } else if (response.getTypeUrl().equals(EDS)) {
          ClusterLoadAssignment cla = any.unpack(ClusterLoadAssignment.class);
          Map<String, Offered> endpoints = new TreeMap<>();
          for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
            for (LbEndpoint lb : locality.getLbEndpointsList()) {
              var address = lb.getEndpoint().getAddress().getSocketAddress();
              endpoints.put(address.getAddress() + ":" + address.getPortValue(),
                  new Offered(lb.getHealthStatus().name(), lb.getLoadBalancingWeight().getValue()));
            }
          }
          assignments.add(new Assignment(epoch, cla.getClusterName(), Map.copyOf(endpoints)));
        }
      }
    } catch (InvalidProtocolBufferException e) {
      error = e;
    }
    DiscoveryRequest.Builder ack = DiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl())
        .setVersionInfo(response.getVersionInfo()).setResponseNonce(response.getNonce());
    if (response.getTypeUrl().equals(EDS)) {
      ack.addAllResourceNames(clusters);
    }
    send(ack.build());
  }

  private synchronized void send(DiscoveryRequest request) {
    requests.onNext(request);
  }

  /** Every response received (and ACKed), oldest first. */
  List<Response> history() {
    return List.copyOf(history);
  }

  /** Every assignment received, oldest first. */
  List<Assignment> assignments() {
    return List.copyOf(assignments);
  }

  /** The newest assignment of {@code cluster}, or null before the first. */
  Assignment latest(String cluster) {
    List<Assignment> all = assignments();
    for (int i = all.size() - 1; i >= 0; i--) {
      if (all.get(i).cluster().equals(cluster)) {
        return all.get(i);
      }
    }
    return null;
  }

  /** The connect timeout of {@code cluster} in the newest CDS response that had it, or null. */
  Long connectTimeoutMillis(String cluster) {
    List<Long> all = connectTimeouts(cluster);
    return all.isEmpty() ? null : all.get(all.size() - 1);
  }

  /** The connect timeout of {@code cluster} in every CDS response that had it, oldest first. */
  List<Long> connectTimeouts(String cluster) {
    return List.copyOf(connectTimeouts.getOrDefault(cluster, List.of()));
  }

  /** The newest epoch any response named (the client ACKs every response, so it held it). */
  long newestEpoch() {
    return newestEpoch;
  }

  /** Why the stream ended, or null while it runs. */
  Throwable error() {
    return error;
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
