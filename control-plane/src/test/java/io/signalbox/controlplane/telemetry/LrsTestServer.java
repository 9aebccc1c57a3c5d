package io.signalbox.controlplane.telemetry;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadReportingServiceGrpc;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.controlplane.xds.EdgeSettings;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.store.memory.InMemoryLoadReports;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One replica's load reporting served on loopback behind the xDS edge, with hand-driven LRS
 * streams: for tests that send the report sequences a given client kind sends. Public for the
 * admin tests that read drains from real reports.
 */
public final class LrsTestServer implements AutoCloseable {

  final LoadReporting reporting;
  private final AdsServer server;
  private final ManagedChannel channel;
  private final List<Client> clients = new ArrayList<>();

  LrsTestServer(Duration interval, KnownClusters known) {
    this(interval, known, new InMemoryLoadReports());
  }

  LrsTestServer(Duration interval, KnownClusters known, io.signalbox.store.LoadReportStore store) {
    this(LoadReporting.withKnown(Clock.systemUTC(), interval, "r1", store, () -> known, new SimpleMeterRegistry()));
  }

  /** Serves {@code reporting}, built by the test (a stalling or snapshot-fed one); closes it with the rest. */
  public LrsTestServer(LoadReporting reporting) {
    this.reporting = reporting;
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(),
        EdgeSettings.plaintext(), refusal -> {}, List.of(reporting.service()));
    channel = Grpc.newChannelBuilder("127.0.0.1:" + server.port(), InsecureChannelCredentials.create()).build();
  }

  FleetLoad fleet() {
    return reporting.fleetLoad();
  }

  /** Opens an LRS stream as {@code node} and waits for the server's answer. */
  public Client open(String node) throws InterruptedException {
    Client c = start(LoadStatsRequest.newBuilder().setNode(Node.newBuilder().setId(node)).build());
    Object first = c.next();
    if (!(first instanceof LoadStatsResponse)) {
      throw new AssertionError("expected the LRS answer, got " + first);
    }
    c.answer = (LoadStatsResponse) first;
    return c;
  }

  /** Opens an LRS stream whose first request is {@code first}, without waiting: for streams refused. */
  Client start(LoadStatsRequest first) {
    return new Client(first);
  }

  /** One LRS stream, as a client opens it: the node first, then reports. */
  public final class Client {
    final String node;
    final LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    final StreamObserver<LoadStatsRequest> requests;
    private LoadStatsResponse answer;

    private Client(LoadStatsRequest first) {
      this.node = first.getNode().getId();
      requests = LoadReportingServiceGrpc.newStub(channel).streamLoadStats(new StreamObserver<>() {
        @Override
        public void onNext(LoadStatsResponse value) {
          answers.add(value);
        }

        @Override
        public void onError(Throwable t) {
          answers.add(t);
        }

        @Override
        public void onCompleted() {
          answers.add("completed");
        }
      });
      requests.onNext(first);
      clients.add(this);
    }

    /** The server's answer to the stream's first request, as {@link #open} waited for it. */
    public LoadStatsResponse answer() {
      return answer;
    }

    /** What the server sent next (an answer, its error, or "completed"); null after 20 s of nothing. */
    Object next() throws InterruptedException {
      return answers.poll(20, TimeUnit.SECONDS);
    }

    public void report(ClusterStats... stats) {
      requests.onNext(LoadStatsRequest.newBuilder().setNode(Node.newBuilder().setId(node))
          .addAllClusterStats(List.of(stats)).build());
    }

    public void end() {
      try {
        requests.onCompleted();
      } catch (IllegalStateException alreadyEnded) {
        // the test ended it already
      }
    }
  }

  static ClusterStats stats(String cluster, UpstreamLocalityStats... localities) {
    return ClusterStats.newBuilder().setClusterName(cluster).addAllUpstreamLocalityStats(List.of(localities)).build();
  }

  static UpstreamLocalityStats locality(String zone, long issued, long succeeded, long errored, long inFlight) {
    return UpstreamLocalityStats.newBuilder()
        .setLocality(io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone(zone))
        .setTotalIssuedRequests(issued).setTotalSuccessfulRequests(succeeded).setTotalErrorRequests(errored)
        .setTotalRequestsInProgress(inFlight).build();
  }

  @Override
  public void close() throws InterruptedException {
    clients.forEach(Client::end);
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
    reporting.close();
  }
}
