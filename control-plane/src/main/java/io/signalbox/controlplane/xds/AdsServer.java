package io.signalbox.controlplane.xds;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.InternalNettyServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.Pem;
import io.signalbox.controlplane.tls.TlsMaterial;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ADS (state of the world and delta) on gRPC: Signalbox's own stream engine ({@link AdsService})
 * behind the edge's checks ({@link StreamGate}), with {@link SnapshotWatcher} and
 * {@link StreamTracker} deciding what to send and following what each client did with it.
 */
public final class AdsServer implements XdsServer {

  private static final Logger log = LoggerFactory.getLogger(AdsServer.class);

  /**
   * HTTP/2's own cap on a connection's streams: a backstop far above {@code maxStreamsPerConnection}.
   * Streams past the gate's limit are opened and refused at once with a status the client reads; a
   * cap close to that limit makes a client queue its excess streams, where grpc-java's client was
   * seen to hold them forever instead of failing them. It bounds what a client that never reads can
   * leave behind (a refused stream's trailers) to about a kilobyte per stream.
   */
  static final int MAX_HTTP2_STREAMS = 10_000;
  /**
   * A client that resets more streams than this per {@link #RST_WINDOW_SECONDS} is disconnected
   * (HTTP/2 rapid reset, CVE-2023-44487). Above what a refused flood of thousands of streams sends
   * back (grpc-java's client resets each refused stream).
   */
  static final int MAX_RST_PER_WINDOW = 10_000;
  static final int RST_WINDOW_SECONDS = 10;

  private final Server server;
  private final SnapshotWatcher watcher;
  private final StreamTracker tracker;
  private final Edge edge;

  /** What the server's edge holds open: the watched certificate files, TLS, the refusal audit. */
  private record Edge(CertificateFiles files, RotatingTls tls, Refusals refusals) {
    void close() {
      if (files != null) {
        files.close();
      }
      if (tls != null) {
        tls.close();
      }
      refusals.close();
    }
  }

  private AdsServer(Server server, SnapshotWatcher watcher, StreamTracker tracker, Edge edge) {
    this.server = server;
    this.watcher = watcher;
    this.tracker = tracker;
    this.edge = edge;
  }

  /** Binds and starts an ADS server on {@code address:port} (port 0 picks a free one). */
  public static AdsServer start(String address, int port, Clock clock, MeterRegistry meters) {
    return start(address, port, Waves.NONE, clock, meters);
  }

  /** As above, releasing epochs wave by wave ({@link #release}). */
  public static AdsServer start(String address, int port, Waves waves, Clock clock, MeterRegistry meters) {
    return start(address, port, waves, clock, meters, EdgeSettings.plaintext(), refusal -> {});
  }

  /**
   * As above, meeting clients as {@code edge} says: TLS or mutual TLS with certificates re-read when
   * their files change, node identity, and limits.
   *
   * @param audit records each authentication failure; runs on its own thread, may block (a store write)
   * @throws IllegalStateException naming the file when the TLS files cannot be used
   */
  public static AdsServer start(String address, int port, Waves waves, Clock clock, MeterRegistry meters,
      EdgeSettings edge, Consumer<Refusal> audit) {
    return start(address, port, waves, clock, meters, edge, audit, List.of());
  }

  /**
   * As above, also serving {@code beside} (the load reporting service) on the same port, behind the
   * same edge: TLS, client certificates, node identity and the streams-per-connection limit.
   */
  public static AdsServer start(String address, int port, Waves waves, Clock clock, MeterRegistry meters,
      EdgeSettings edge, Consumer<Refusal> audit, List<BindableService> beside) {
    Refusals refusals = new Refusals(clock, meters, StreamGate.LIMITS, audit);
    CertificateFiles files = null;
    RotatingTls tls = null;
    if (edge.tls() != null) {
      Pem.Read<TlsMaterial> now = CertificateFiles.read(edge.tls());
      if (now instanceof Pem.Read.Invalid<TlsMaterial> invalid) {
        refusals.close();
        throw new IllegalStateException(invalid.message());
      }
      tls = new RotatingTls(((Pem.Read.Ok<TlsMaterial>) now).value(), refusals);
      try {
        files = CertificateFiles.watch(edge.tls(), tls::update);
      } catch (IllegalStateException e) {
        refusals.close();
        throw e;
      }
      // The files may have changed between the read and the watch; the watch's first set wins.
      tls.update(files.current());
    }
    SnapshotWatcher[] watcherRef = new SnapshotWatcher[1];
    StreamTracker tracker = new StreamTracker(clock, waves, edge.clientKinds(),
        wave -> watcherRef[0].releasedTo(wave), meters);
    SnapshotWatcher watcher = new SnapshotWatcher(tracker, clock, waves.count());
    watcherRef[0] = watcher;
    AdsService ads = new AdsService(tracker, watcher);
    InetSocketAddress bind = new InetSocketAddress(address, port);
    XdsLimitsSettings limits = edge.limits();
    StreamGate gate = new StreamGate(limits, edge.tls() != null && edge.tls().caFile() != null, edge.identity(),
        refusals);
    NettyServerBuilder builder = tls == null ? NettyServerBuilder.forAddress(bind)
        : NettyServerBuilder.forAddress(bind, InternalNettyServerCredentials.create(tls));
    beside.forEach(service -> builder.addService(ServerInterceptors.intercept(service, gate)));
    Server server = builder
        .addService(ServerInterceptors.intercept(ads, gate))
        .addTransportFilter(gate.transportFilter())
        // Requests are handled on the connection's event loop: they only update per-stream state and
        // write responses already encoded (see XdsStream), they never block. With grpc's default
        // executor every ACK paid a hand-off to another thread and back.
        .directExecutor()
        .keepAliveTime(30, TimeUnit.SECONDS)
        .permitKeepAliveTime(limits.permitKeepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
        .permitKeepAliveWithoutCalls(true)
        .maxInboundMessageSize(limits.maxRequestBytes())
        .maxConcurrentCallsPerConnection(Math.max(MAX_HTTP2_STREAMS, 4 * limits.maxStreamsPerConnection()))
        .maxRstFramesPerWindow(MAX_RST_PER_WINDOW, RST_WINDOW_SECONDS)
        .handshakeTimeout(limits.handshakeTimeout().toNanos(), TimeUnit.NANOSECONDS)
        .maxConnectionAge(edge.maxConnectionAge().toNanos(), TimeUnit.NANOSECONDS)
        .maxConnectionAgeGrace(edge.maxConnectionAgeGrace().toNanos(), TimeUnit.NANOSECONDS)
        .build();
    Edge held = new Edge(files, tls, refusals);
    try {
      server.start();
    } catch (IOException e) {
      held.close();
      throw new UncheckedIOException("cannot bind xDS server on " + address + ":" + port, e);
    }
    log.info("xDS (ADS, SotW and delta) listening on {}:{} ({})", address, server.getPort(), edge.mode());
    return new AdsServer(server, watcher, tracker, held);
  }

  /**
   * Hands every response sent, ACK, NACK and stream closing to {@code sink} from now on: the stream
   * history (issue 43). Called once, before the first epoch is published.
   */
  public void recordStreamEvents(StreamEventSink sink) {
    tracker.recordTo(sink);
  }

  @Override
  public ClientKinds clientKinds() {
    return tracker.kinds();
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

  /**
   * The last {@link #clients()} answer, the tracker's counts it was built at, and its streams in
   * the answer's order.
   */
  private record Clients(long changes, long members, XdsStream[] order, List<ClientStatus> list) {}

  private volatile Clients clients;

  /**
   * Always the same list class, whichever way it was built: the rollout check, the fleet sampler
   * and the recorder iterate it several times a second, and a second class at that call site made
   * the JIT throw their compiled code away and compile it again (class_check traps, seen in JFR).
   */
  private static List<ClientStatus> listOf(ClientStatus[] statuses) {
    return java.util.Collections.unmodifiableList(java.util.Arrays.asList(statuses));
  }

  /**
   * {@inheritDoc} The same list instance until a stream opens, closes or changes: the rollout
   * check, the status recorder and the metrics ask several times a second, and between changes
   * rebuilding a list of thousands of clients each time was most of what they cost. The order by
   * node id is kept until a stream opens, closes or learns its node; between those only the
   * statuses are read again, and each stream answers with the instance it had unless it changed.
   */
  @Override
  public List<ClientStatus> clients() {
    // Read before building: a change made meanwhile has a higher count, so the next call rebuilds.
    long changes = tracker.changes();
    long members = tracker.members();
    Clients last = clients;
    if (last != null && last.changes() == changes) {
      return last.list();
    }
    if (last != null && last.members() == members) {
      ClientStatus[] statuses = new ClientStatus[last.order().length];
      for (int i = 0; i < statuses.length; i++) {
        statuses[i] = last.order()[i].status();
      }
      List<ClientStatus> list = listOf(statuses);
      clients = new Clients(changes, members, last.order(), list);
      return list;
    }
    record Row(XdsStream stream, ClientStatus status) {}
    List<Row> rows = tracker.streams().stream()
        .map(s -> new Row(s, s.status()))
        .sorted(Comparator.comparing((Row r) -> r.status().nodeId()).thenComparingLong(r -> r.status().streamId()))
        .toList();
    XdsStream[] order = rows.stream().map(Row::stream).toArray(XdsStream[]::new);
    List<ClientStatus> list = listOf(rows.stream().map(Row::status).toArray(ClientStatus[]::new));
    clients = new Clients(changes, members, order, list);
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
    edge.close();
  }
}
