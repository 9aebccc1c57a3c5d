package io.signalbox.bench;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One simulated proxyless client on its own HTTP/2 connection, subscribing the way grpc-xds does:
 * LDS and RDS by name, CDS as a wildcard, EDS by name for every cluster, and ACKing every response
 * at once. A failed stream is counted as an error and reopened a bounded number of times.
 */
sealed interface AdsClient permits SotwClient, DeltaClient {

  int MAX_RESTARTS = 3;

  /** Opens the stream and sends the initial subscriptions. */
  void start();

  ClientState state();

  ManagedChannel channel();

  static Node node(int id) {
    return node(id, "");
  }

  /** With {@code zone} (empty: none) as its locality. */
  static Node node(int id, String zone) {
    Node.Builder node = Node.newBuilder().setId("bench-" + id).setCluster("bench");
    if (!zone.isEmpty()) {
      node.getLocalityBuilder().setZone(zone);
    }
    return node.build();
  }

  /** Reopens {@code client}'s stream after a pause, at most {@link #MAX_RESTARTS} times in all. */
  static void restartLater(AdsClient client, AtomicInteger restarts, ScheduledExecutorService scheduler) {
    if (client.channel().isShutdown()) {
      return; // the fleet is closing: not an error
    }
    client.state().failed();
    if (restarts.incrementAndGet() <= MAX_RESTARTS) {
      scheduler.schedule(client::start, 1, TimeUnit.SECONDS);
    }
  }

  record Subscriptions(List<String> listeners, List<String> routes, List<String> clusters) {}
}
