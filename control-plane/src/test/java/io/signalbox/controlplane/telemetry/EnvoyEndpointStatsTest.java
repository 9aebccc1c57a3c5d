package io.signalbox.controlplane.telemetry;

import static io.signalbox.controlplane.telemetry.LrsTestServer.locality;
import static io.signalbox.controlplane.telemetry.LrsTestServer.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamEndpointStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-endpoint figures as Envoy sends them once answered with {@code report_endpoint_granularity}:
 * {@code upstream_endpoint_stats} inside each locality's entry, over a real LRS stream on loopback.
 */
class EnvoyEndpointStatsTest {

  private static final Duration INTERVAL = Duration.ofMillis(300);
  private static final Locality ZONE_A = new Locality("", "a", "");
  private static final Locality ZONE_B = new Locality("", "b", "");
  private static final String B1 = "10.0.0.1:8080";
  private static final String B2 = "10.0.0.2:8080";
  private static final String B3 = "10.0.0.3:8080";

  private final LrsTestServer lrs = new LrsTestServer(INTERVAL, new KnownClusters(1,
      Map.of("greeter", Set.of(ZONE_A, ZONE_B)),
      Set.of(new KnownClusters.Placed("greeter", ZONE_A, B1), new KnownClusters.Placed("greeter", ZONE_A, B2),
          new KnownClusters.Placed("greeter", ZONE_B, B3))));
  private final Instant started = Instant.now();

  @AfterEach
  void stop() throws InterruptedException {
    lrs.close();
  }

  /** A locality's entry with its endpoints' entries, as Envoy sends them. */
  private static UpstreamLocalityStats withEndpoints(UpstreamLocalityStats locality, UpstreamEndpointStats... endpoints) {
    return locality.toBuilder().addAllUpstreamEndpointStats(java.util.List.of(endpoints)).build();
  }

  private static UpstreamEndpointStats endpoint(String hostPort, long issued, long succeeded, long inFlight) {
    String[] parts = hostPort.split(":");
    return UpstreamEndpointStats.newBuilder()
        .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress(parts[0])
            .setPortValue(Integer.parseInt(parts[1]))))
        .setTotalIssuedRequests(issued).setTotalSuccessfulRequests(succeeded).setTotalRequestsInProgress(inFlight)
        .build();
  }

  /** Issued summed over every interval so far, per endpoint of zone a ({@code ""}: the locality). */
  private Map<String, Long> issuedInZoneA() {
    Map<String, Long> out = new java.util.TreeMap<>();
    for (LocalityLoad l : lrs.fleet().load("greeter", started.minusSeconds(60)).localities()) {
      if (l.locality().equals(ZONE_A)) {
        out.merge(l.endpoint(), l.issued(), Long::sum);
      }
    }
    return out;
  }

  @Test
  void sumsEachServedEndpointBesideItsLocalityAndRefusesEndpointsTheAssignmentDoesNotPutThere()
      throws InterruptedException {
    LrsTestServer.Client envoy = lrs.open("envoy-1");
    envoy.report(stats("greeter", withEndpoints(locality("a", 12, 12, 0, 0),
        endpoint(B1, 5, 5, 0), endpoint(B2, 7, 7, 0),
        endpoint(B3, 1, 1, 0),              // served, but in zone b
        endpoint("10.9.9.9:1", 1, 1, 0))));  // not served at all
    envoy.report(stats("greeter", withEndpoints(locality("a", 3, 3, 0, 0), endpoint(B1, 3, 3, 0))));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(issuedInZoneA()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("", 15L, B1, 8L, B2, 7L))));
    assertThat(lrs.reporting.refused(LoadMetrics.UNKNOWN_ENDPOINT)).isEqualTo(2);
  }

  @Test
  void anEndpointsWorkIsItsOwnWhereTheClientReportsItAndItsLocalitysOtherwise() throws InterruptedException {
    LrsTestServer.Client envoy = lrs.open("envoy-1");
    LrsTestServer.Client grpc = lrs.open("web-1");
    // Envoy: a stream open to b1, b2 busy with unary calls and nothing in flight.
    envoy.report(stats("greeter", withEndpoints(locality("a", 9, 8, 0, 1),
        endpoint(B1, 1, 0, 1), endpoint(B2, 8, 8, 0))));
    // grpc-java reports the locality only: its figure bounds every endpoint there.
    grpc.report(stats("greeter", locality("a", 4, 3, 0, 1)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(lrs.fleet().work("greeter", ZONE_A, B2))
          .extracting(w -> w.client().nodeId(), ClientWork::inFlight, ClientWork::idle)
          .containsExactly(tuple("envoy-1", 0L, true), tuple("web-1", 1L, false));
      assertThat(lrs.fleet().work("greeter", ZONE_A, B1))
          .extracting(w -> w.client().nodeId(), ClientWork::inFlight)
          .containsExactly(tuple("envoy-1", 1L), tuple("web-1", 1L));
      assertThat(lrs.fleet().work("greeter", ZONE_A))
          .extracting(w -> w.client().nodeId(), ClientWork::inFlight)
          .containsExactly(tuple("envoy-1", 1L), tuple("web-1", 1L));
    });
  }
}
