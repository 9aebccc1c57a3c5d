package io.signalbox.controlplane.xds;

import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.controlplane.server.DefaultStartupConfigs;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.controlplane.server.serializer.ProtoResourcesSerializer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ADS (state of the world and delta) on gRPC, using java-control-plane's {@link V3DiscoveryServer}
 * for the protocol mechanics (streams, nonces) and Signalbox's own {@link SnapshotWatcher} and
 * {@link StreamTracker} for what to send and what the client did with it.
 */
public final class AdsServer implements XdsServer {

  private static final Logger log = LoggerFactory.getLogger(AdsServer.class);

  private final Server server;
  private final SnapshotWatcher watcher;
  private final StreamTracker tracker;
  private final ExecutorService sendPool;

  private AdsServer(Server server, SnapshotWatcher watcher, StreamTracker tracker, ExecutorService sendPool) {
    this.server = server;
    this.watcher = watcher;
    this.tracker = tracker;
    this.sendPool = sendPool;
  }

  /** Binds and starts an ADS server on {@code address:port} (port 0 picks a free one). */
  public static AdsServer start(String address, int port, Clock clock, MeterRegistry meters) {
    return start(address, port, Waves.NONE, clock, meters);
  }

  /** As above, releasing epochs wave by wave ({@link #release}). */
  public static AdsServer start(String address, int port, Waves waves, Clock clock, MeterRegistry meters) {
    AtomicInteger threads = new AtomicInteger();
    ExecutorService sendPool = Executors.newFixedThreadPool(
        Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
          Thread t = new Thread(r, "xds-send-" + threads.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    SnapshotWatcher[] watcherRef = new SnapshotWatcher[1];
    StreamTracker tracker = new StreamTracker(clock, waves, wave -> watcherRef[0].releasedTo(wave), meters);
    SnapshotWatcher watcher = new SnapshotWatcher(tracker, clock, waves.count());
    watcherRef[0] = watcher;
    V3DiscoveryServer discovery = new V3DiscoveryServer(
        List.of(tracker),
        watcher,
        // One sequential executor per stream: a stream's responses leave in the order they were
        // computed, streams proceed in parallel, and no response is written under a lock.
        () -> MoreExecutors.newSequentialExecutor(sendPool),
        new PrepackedSerializer(),
        new DefaultStartupConfigs());
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress(address, port))
        .addService(discovery.getAggregatedDiscoveryServiceImpl())
        // Requests are handled on the connection's event loop: the callbacks and watches only update
        // per-stream state and enqueue responses (see SnapshotWatcher), they never block. With
        // grpc's default executor every ACK paid a hand-off to another thread and back.
        .directExecutor()
        .keepAliveTime(30, TimeUnit.SECONDS)
        .permitKeepAliveTime(10, TimeUnit.SECONDS)
        .permitKeepAliveWithoutCalls(true)
        .maxInboundMessageSize(16 * 1024 * 1024)
        .build();
    try {
      server.start();
    } catch (IOException e) {
      sendPool.shutdownNow();
      throw new UncheckedIOException("cannot bind xDS server on " + address + ":" + port, e);
    }
    log.info("xDS (ADS, SotW and delta) listening on {}:{}", address, server.getPort());
    return new AdsServer(server, watcher, tracker, sendPool);
  }

  @Override
  public int port() {
    return server.getPort();
  }

  @Override
  public void publish(Snapshot snapshot) {
    watcher.publish(snapshot);
  }

  @Override
  public void release(int wave, Snapshot snapshot) {
    watcher.release(wave, snapshot);
  }

  @Override
  public Snapshot releasedTo(int wave) {
    return watcher.releasedTo(wave);
  }

  @Override
  public Snapshot current() {
    return watcher.current();
  }

  /** The last {@link #clients()} answer and the tracker's count of changes it was built at. */
  private record Clients(long changes, List<ClientStatus> list) {}

  private volatile Clients clients;

  /**
   * {@inheritDoc} The same list instance until a stream opens, closes or changes: the rollout
   * check, the status recorder and the metrics ask several times a second, and between changes
   * rebuilding and sorting a list of thousands of clients each time was most of what they cost.
   */
  @Override
  public List<ClientStatus> clients() {
    // Read before building: a change made meanwhile has a higher count, so the next call rebuilds.
    long changes = tracker.changes();
    Clients last = clients;
    if (last != null && last.changes() == changes) {
      return last.list();
    }
    List<ClientStatus> list = tracker.streams().stream()
        .map(XdsStream::status)
        .sorted(Comparator.comparing(ClientStatus::nodeId).thenComparingLong(ClientStatus::streamId))
        .toList();
    clients = new Clients(changes, list);
    return list;
  }

  @Override
  public List<ClientStatus> holders(io.signalbox.controlplane.snapshot.XdsType type, String name) {
    return tracker.streams().stream().filter(s -> s.holds(type, name)).map(XdsStream::status).toList();
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sendPool.shutdownNow();
  }

  /**
   * Resources reach the server already packed (the snapshot serialized each once); passing the
   * {@link Any} through is what makes a push cost a copy instead of a serialization per client.
   */
  private static final class PrepackedSerializer implements ProtoResourcesSerializer {
    @Override
    public Any serialize(Message resource, Resources.ApiVersion apiVersion) {
      if (resource instanceof Any any) {
        return any;
      }
      return Any.pack(resource);
    }
  }
}
