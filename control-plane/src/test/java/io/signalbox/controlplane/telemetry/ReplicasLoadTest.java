package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.store.memory.InMemoryLoadReports;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
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
  private final Map<String, LrsTestServer> replicas = new HashMap<>();

  @AfterEach
  void stop() throws Exception {
    for (LrsTestServer replica : replicas.values()) {
      replica.close();
    }
  }

  private LoadReporting replica(String id) {
    KnownClusters known = new KnownClusters(1, Map.of("greeter", Set.of(ZONE_A)));
    LrsTestServer replica = new LrsTestServer(LoadReporting.withKnown(Clock.systemUTC(), Duration.ofMillis(300), id,
        store, () -> known, new SimpleMeterRegistry()));
    replicas.put(id, replica);
    return replica.reporting;
  }

  private void report(String replica, String node, long issued) throws InterruptedException {
    replicas.get(replica).open(node)
        .report(LrsTestServer.stats("greeter", LrsTestServer.locality("a", issued, issued, 0, 1)));
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
