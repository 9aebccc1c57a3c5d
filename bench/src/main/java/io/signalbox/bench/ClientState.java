package io.signalbox.bench;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one simulated client holds and has received, independent of the protocol variant. Updated
 * only from its stream's callbacks (gRPC calls them one at a time per call); counters are atomic so
 * the driver can read them.
 */
final class ClientState {

  static final String LDS = "type.googleapis.com/envoy.config.listener.v3.Listener";
  static final String RDS = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
  static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  static final String EDS = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

  final int id;
  final AtomicLong bytes = new AtomicLong();
  final AtomicLong responses = new AtomicLong();
  final AtomicLong resources = new AtomicLong();
  final AtomicLong edsResponses = new AtomicLong();
  final AtomicLong errors = new AtomicLong();

  private final Map<String, Integer> clusterIndex;
  private final AtomicReference<ChangeTracker> expected;
  private final CountDownLatch fleetReady;
  private final BitSet clustersWithEndpoints;
  private final int endpointsPerCluster;
  private boolean listener;
  private boolean route;
  private boolean ready;
  volatile long readyAtNanos;
  /** The zone its node names; empty for none. */
  final String zone;

  ClientState(int id, Workload workload, Map<String, Integer> clusterIndex, AtomicReference<ChangeTracker> expected,
      CountDownLatch fleetReady) {
    this.id = id;
    this.clusterIndex = clusterIndex;
    this.expected = expected;
    this.fleetReady = fleetReady;
    this.clustersWithEndpoints = new BitSet(workload.clusters());
    this.endpointsPerCluster = workload.endpoints();
    this.zone = workload.clientZone(id);
  }

  /** Counts one response of {@code serializedSize} bytes carrying {@code resourceCount} resources. */
  void received(String typeUrl, int serializedSize, int resourceCount) {
    bytes.addAndGet(serializedSize);
    responses.incrementAndGet();
    resources.addAndGet(resourceCount);
    if (EDS.equals(typeUrl)) {
      edsResponses.incrementAndGet();
    }
  }

  void resource(String typeUrl, Any any, long nowNanos) {
    switch (typeUrl) {
      case LDS -> listener = true;
      case RDS -> route = true;
      case EDS -> assignment(any, nowNanos);
      default -> { }
    }
    checkReady(nowNanos);
  }

  private void assignment(Any any, long nowNanos) {
    ClusterLoadAssignment cla;
    try {
      cla = any.unpack(ClusterLoadAssignment.class);
    } catch (InvalidProtocolBufferException e) {
      errors.incrementAndGet();
      return;
    }
    Integer index = clusterIndex.get(cla.getClusterName());
    if (index == null) {
      return;
    }
    int count = 0;
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      count += locality.getLbEndpointsCount();
    }
    if (count == endpointsPerCluster) {
      clustersWithEndpoints.set(index);
    }
    ChangeTracker change = expected.get();
    if (change != null && change.cluster.equals(cla.getClusterName()) && holds(cla, change)) {
      change.seen(id, nowNanos);
    }
  }

  private static boolean holds(ClusterLoadAssignment cla, ChangeTracker change) {
    for (LocalityLbEndpoints locality : cla.getEndpointsList()) {
      for (LbEndpoint e : locality.getLbEndpointsList()) {
        var socket = e.getEndpoint().getAddress().getSocketAddress();
        if (socket.getPortValue() == change.port && socket.getAddress().equals(change.address)) {
          return e.getLoadBalancingWeight().getValue() == change.weight;
        }
      }
    }
    return false;
  }

  private void checkReady(long nowNanos) {
    if (!ready && listener && route && clustersWithEndpoints.cardinality() == clusterIndex.size()) {
      ready = true;
      readyAtNanos = nowNanos;
      fleetReady.countDown();
    }
  }

  void failed() {
    errors.incrementAndGet();
  }
}
