package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas, one store: each aggregates its own clients' reports, and either replica's read
 * side shows the sum. (The store's half, both stores with two writers and one reader, is
 * {@code LoadReportStoreContract}.)
 */
class ReplicasLoadTest {

  private static final Locality ZONE_A = new Locality("", "a", "");
  private final InMemoryLoadReports store = new InMemoryLoadReports();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private LoadReporting replica(String id) {
    KnownClusters known = new KnownClusters(1, Map.of("greeter", Set.of(ZONE_A)));
    LoadReporting reporting = LoadReporting.withKnown(Clock.systemUTC(), Duration.ofMillis(300), id, store,
        () -> known, new SimpleMeterRegistry());
    open.add(reporting);
    AdsServer server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), new SimpleMeterRegistry(),
        EdgeSettings.plaintext(), refusal -> {}, List.of(reporting.service()));
    open.add(server);
    ManagedChannel channel = Grpc.newChannelBuilder("127.0.0.1:" + server.port(), InsecureChannelCredentials.create())
        .build();
    open.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    channels.put(id, channel);
    return reporting;
  }

  private final Map<String, ManagedChannel> channels = new java.util.HashMap<>();

  private void report(String replica, String node, long issued) throws InterruptedException {
    LinkedBlockingQueue<LoadStatsResponse> answers = new LinkedBlockingQueue<>();
    StreamObserver<LoadStatsRequest> requests = LoadReportingServiceGrpc.newStub(channels.get(replica))
        .streamLoadStats(new StreamObserver<>() {
          @Override
          public void onNext(LoadStatsResponse value) {
            answers.add(value);
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {}
        });
    open.add(requests::onCompleted);
    requests.onNext(LoadStatsRequest.newBuilder().setNode(Node.newBuilder().setId(node)).build());
    assertThat(answers.poll(20, TimeUnit.SECONDS)).isNotNull();
    requests.onNext(LoadStatsRequest.newBuilder().setNode(Node.newBuilder().setId(node))
        .addClusterStats(ClusterStats.newBuilder().setClusterName("greeter").addUpstreamLocalityStats(
            UpstreamLocalityStats.newBuilder()
                .setLocality(io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone("a"))
                .setTotalIssuedRequests(issued).setTotalSuccessfulRequests(issued).setTotalRequestsInProgress(1)))
        .build());
  }

  private static long issued(FleetLoad load, Instant since) {
    return load.load("greeter", since).localities().stream().mapToLong(LocalityLoad::issued).sum();
  }

  @Test
  void eitherReplicaShowsTheSumOfBoth() throws InterruptedException {
    Instant since = Instant.now().minusSeconds(60);
    LoadReporting one = replica("r1");
    LoadReporting two = replica("r2");

    report("r1", "n1", 10);
    report("r2", "n2", 32);

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(issued(one.fleetLoad(), since)).isEqualTo(42);
      assertThat(issued(two.fleetLoad(), since)).isEqualTo(42);
    });
    assertThat(two.fleetLoad().load("greeter", since).clients())
        .extracting(ReportingClient::nodeId, ReportingClient::replica)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", "r1"), org.assertj.core.groups.Tuple.tuple("n2", "r2"));
    assertThat(one.fleetLoad().work("greeter", ZONE_A)).extracting(ClientWork::inFlight).containsExactly(1L, 1L);
  }
}
