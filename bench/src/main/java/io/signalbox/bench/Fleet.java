package io.signalbox.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;

/**
 * N simulated clients, one channel (so one HTTP/2 connection) each, all sharing grpc-netty's default
 * event loop group and running their callbacks on it ({@code directExecutor}): a load generator of
 * 5,000 clients must not spend its two cores on thread hand-offs.
 */
final class Fleet implements AutoCloseable {

  /** The protocol variant the clients speak. */
  enum Mode { SOTW, DELTA }

  private final List<AdsClient> clients = new ArrayList<>();
  private final List<LoadReporter> reporters = new ArrayList<>();
  private final AtomicReference<ChangeTracker> expected = new AtomicReference<>();
  private final CountDownLatch ready;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fleet-restarts");
    t.setDaemon(true);
    return t;
  });

  Fleet(int size, Mode mode, Workload workload, int xdsPort) {
    this(size, mode, workload, new int[] {xdsPort});
  }

  // Reports are built and sent here, not on the event loop that reads every client's ADS responses.
  private final ScheduledExecutorService reportScheduler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fleet-load-reports");
    t.setDaemon(true);
    return t;
  });

  /** Client {@code i} connects to {@code xdsPorts[i % xdsPorts.length]}: a fleet spread over replicas. */
  Fleet(int size, Mode mode, Workload workload, int[] xdsPorts) {
    this(size, mode, workload, xdsPorts, false, 0);
  }

  /**
   * With {@code loadReports}, every client also opens an LRS stream on its ADS channel and reports
   * every cluster it subscribes to, in every zone of the workload, as grpc-java does
   * ({@link LoadReporter}), with traffic drawn from {@code seed}.
   */
  Fleet(int size, Mode mode, Workload workload, int[] xdsPorts, boolean loadReports, long seed) {
    this(size, mode, workload, xdsPorts, loadReports, seed, false);
  }

  /**
   * With {@code failover}, client {@code i} still starts on {@code xdsPorts[i % n]} but knows every
   * replica, its own first and then the next ones in turn ({@link FailoverAddresses}): when its
   * replica dies, its stream is reopened (see {@link AdsClient#restartLater}) on the next one that
   * answers, as a client behind a Kubernetes Service would reconnect.
   */
  Fleet(int size, Mode mode, Workload workload, int[] xdsPorts, boolean loadReports, long seed, boolean failover) {
    this.ready = new CountDownLatch(size);
    Map<String, Integer> index = workload.clusterIndex();
    List<String> clusterNames = new ArrayList<>(workload.clusters());
    for (int i = 0; i < workload.clusters(); i++) {
      clusterNames.add(workload.clusterName(i));
    }
    AdsClient.Subscriptions subscriptions = new AdsClient.Subscriptions(
        List.of(Workload.LISTENER), List.of(Workload.ROUTE_CONFIG), List.copyOf(clusterNames));
    LoadReports shape = reports(workload, subscriptions.clusters(), seed);
    for (int i = 0; i < size; i++) {
      ClientState state = new ClientState(i, workload, index, expected, ready);
      NettyChannelBuilder builder = failover
          ? FailoverAddresses.channel(xdsPorts, i % xdsPorts.length)
          : NettyChannelBuilder.forAddress("127.0.0.1", xdsPorts[i % xdsPorts.length]);
      ManagedChannel channel = builder
          .usePlaintext()
          .directExecutor()
          .maxInboundMessageSize(64 * 1024 * 1024)
          .build();
      clients.add(mode == Mode.SOTW
          ? new SotwClient(state, channel, subscriptions, scheduler)
          : new DeltaClient(state, channel, subscriptions, scheduler));
      if (loadReports) {
        reporters.add(new LoadReporter(i, channel, AdsClient.node(i), shape, reportScheduler));
      }
    }
  }

  /** What every client reports: its clusters, each in every zone, no drops (the workload sets none). */
  static LoadReports reports(Workload workload, List<String> clusters, long seed) {
    List<io.envoyproxy.envoy.config.core.v3.Locality> localities = workload.zoneNames().stream()
        .map(zone -> io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone(zone).build())
        .toList();
    return new LoadReports(clusters, localities, Map.of(), seed);
  }

  int size() {
    return clients.size();
  }

  /** Opens every client's stream as fast as possible: the connect storm. */
  void connect() {
    clients.forEach(AdsClient::start);
    reporters.forEach(LoadReporter::start);
  }

  /** Load reports sent by the whole fleet so far. */
  long reportsSent() {
    return reporters.stream().mapToLong(r -> r.sent.get()).sum();
  }

  /** LRS streams that failed (each is reopened a bounded number of times). */
  long reportErrors() {
    return reporters.stream().mapToLong(r -> r.errors.get()).sum();
  }

  /** Waits until every client holds the listener, the route config and every cluster's endpoints. */
  boolean awaitReady(long timeoutMillis) throws InterruptedException {
    return ready.await(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  long notReady() {
    return ready.getCount();
  }

  /**
   * The first {@code limit} clients that are not ready, each as "client N: channel STATE, R
   * responses, E errors": whether a stuck client never got its stream through, or got an answer
   * and lacks part of it.
   */
  List<String> notReadyClients(int limit) {
    List<String> out = new ArrayList<>();
    for (AdsClient c : clients) {
      if (out.size() == limit) {
        break;
      }
      if (c.state().readyAtNanos == 0) {
        out.add("client " + c.state().id + ": channel " + c.channel().getState(false) + ", "
            + c.state().responses.get() + " responses, " + c.state().errors.get() + " errors");
      }
    }
    return out;
  }

  /** The latest time a client became ready, or 0 if one never did. */
  long lastReadyNanos() {
    long last = 0;
    for (AdsClient c : clients) {
      long t = c.state().readyAtNanos;
      if (t == 0) {
        return 0;
      }
      last = Math.max(last, t);
    }
    return last;
  }

  void expect(ChangeTracker change) {
    expected.set(change);
  }

  long[] perClient(ToLongFunction<ClientState> counter) {
    long[] out = new long[clients.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = counter.applyAsLong(clients.get(i).state());
    }
    return out;
  }

  long total(ToLongFunction<ClientState> counter) {
    long sum = 0;
    for (AdsClient c : clients) {
      sum += counter.applyAsLong(c.state());
    }
    return sum;
  }

  @Override
  public void close() {
    reportScheduler.shutdownNow();
    clients.forEach(c -> c.channel().shutdownNow());
    for (AdsClient c : clients) {
      try {
        c.channel().awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    scheduler.shutdownNow();
  }
}
