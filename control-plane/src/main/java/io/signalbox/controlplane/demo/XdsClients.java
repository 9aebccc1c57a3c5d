package io.signalbox.controlplane.demo;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.xds.XdsNameResolverProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's traffic: grpc-java's own xDS clients, each a channel to {@code xds:///LISTENER} with
 * its own node, sending one request every {@code every}.
 *
 * <p>grpc-xds reads its process-wide bootstrap once per JVM, which would make every client one
 * node. Each client here gets its own name resolver with its own bootstrap instead (its own URI
 * scheme, so grpc-xds keeps one xDS client per target), and therefore its own ADS stream, node id
 * and node group, as separate processes would have.
 */
public final class XdsClients implements AutoCloseable {

  /** One client: its node, the channel it sends on, and how its requests went. */
  public record Node(String id, String group, String zone) {}

  private record Client(Node node, ManagedChannel channel, AtomicLong ok, AtomicLong failed) {}

  private final List<Client> clients;
  private final ScheduledExecutorService senders;

  private XdsClients(List<Client> clients, ScheduledExecutorService senders) {
    this.clients = clients;
    this.senders = senders;
  }

  /** Opens a channel per node against the xDS server on {@code 127.0.0.1:xdsPort} and starts sending. */
  public static XdsClients start(int xdsPort, String listener, List<Node> nodes, Duration every) {
    ScheduledExecutorService senders = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("demo-traffic").setDaemon(true).build());
    List<Client> clients = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      Node node = nodes.get(i);
      String scheme = "demo" + i;
      @SuppressWarnings("deprecation") // the one way to give a single channel its own xDS bootstrap
      ManagedChannel channel = Grpc.newChannelBuilder(scheme + ":///" + listener, InsecureChannelCredentials.create())
          .nameResolverFactory(XdsNameResolverProvider.createForTest(scheme, bootstrap(xdsPort, node)))
          .build();
      Client client = new Client(node, channel, new AtomicLong(), new AtomicLong());
      clients.add(client);
      senders.scheduleAtFixedRate(() -> send(client), every.toMillis() * i / nodes.size(), every.toMillis(),
          TimeUnit.MILLISECONDS);
    }
    return new XdsClients(List.copyOf(clients), senders);
  }

  /** The bootstrap grpc-xds would read from a file: the server, insecure, and this client's node. */
  static Map<String, ?> bootstrap(int xdsPort, Node node) {
    return Map.of(
        "xds_servers", List.of(Map.of(
            "server_uri", "127.0.0.1:" + xdsPort,
            "channel_creds", List.of(Map.of("type", "insecure")),
            "server_features", List.of("xds_v3"))),
        "node", Map.of("id", node.id(), "cluster", node.group(), "locality", Map.of("zone", node.zone())));
  }

  private static void send(Client client) {
    // Asynchronous, so one slow or failing channel never delays the others' requests.
    HealthGrpc.newStub(client.channel()).withDeadlineAfter(2, TimeUnit.SECONDS)
        .check(HealthCheckRequest.getDefaultInstance(), new io.grpc.stub.StreamObserver<>() {
          @Override
          public void onNext(io.grpc.health.v1.HealthCheckResponse value) {
            client.ok().incrementAndGet();
          }

          @Override
          public void onError(Throwable t) {
            client.failed().incrementAndGet();
          }

          @Override
          public void onCompleted() {}
        });
  }

  public List<Node> nodes() {
    return clients.stream().map(Client::node).toList();
  }

  /** Requests that failed, over every client: an xDS client without a usable config fails them. */
  public long failed() {
    return clients.stream().mapToLong(c -> c.failed().get()).sum();
  }

  @Override
  public void close() {
    senders.shutdownNow();
    clients.forEach(c -> c.channel().shutdownNow());
    for (Client c : clients) {
      try {
        c.channel().awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
