package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamEndpointStats;
import io.envoyproxy.envoy.config.endpoint.v3.UpstreamLocalityStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.ClusterSpec;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.store.memory.InMemoryLoadReports;
import io.signalbox.validation.DrainProgress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A drain read from Envoy-style per-endpoint load reports (sent because the LRS answer asks for
 * endpoint granularity), over a real LRS stream on loopback: the draining endpoint's own in-flight
 * count decides, not its zone's, without {@code loadReportingPerEndpoint}.
 */
class EndpointFiguresDrainTest {

  private static final Duration INTERVAL = Duration.ofMillis(300);
  private static final EndpointRef B1 = new EndpointRef("greeter", "10.0.0.1", 8080);
  private static final EndpointRef B2 = new EndpointRef("greeter", "10.0.0.2", 8080);

  private final Snapshot snapshot = new SnapshotBuilder().candidate(List.of(
      new TranslatedResource(XdsType.CLUSTER, "greeter", Cluster.newBuilder().setName("greeter").build(),
          Set.of("greeter")),
      new TranslatedResource(XdsType.ENDPOINT, "greeter", ClusterLoadAssignment.newBuilder()
          .setClusterName("greeter")
          .addEndpoints(LocalityLbEndpoints.newBuilder()
              .setLocality(io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone("a"))
              .addLbEndpoints(lbEndpoint(B1)).addLbEndpoints(lbEndpoint(B2)))
          .build(), Set.of())),
      Map.of(), null, Provenance.newBuilder().setCause("test").build()).seal(7, Instant.EPOCH);
  private final LoadReporting reporting = new LoadReporting(Clock.systemUTC(), INTERVAL, "r1",
      new InMemoryLoadReports(), () -> snapshot, new SimpleMeterRegistry());
  private final LrsTestServer lrs = new LrsTestServer(reporting);
  private final PublishedView view = new PublishedView(snapshot, null, List.of(), Map.of(), null, Map.of(), Map.of(),
      Map.of("greeter", ClusterSpec.named("greeter").with(new ClusterSpec.Telemetry(true, false))), 0);
  private final DrainLoads loads = DrainLoads.of(reporting.fleetLoad(), () -> view);
  private LrsTestServer.Client envoy;

  @AfterEach
  void stop() throws InterruptedException {
    lrs.close();
  }

  private static LbEndpoint lbEndpoint(EndpointRef e) {
    return LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(address(e))).build();
  }

  private static Address address(EndpointRef e) {
    return Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress(e.address())
        .setPortValue(e.port())).build();
  }

  private static UpstreamEndpointStats endpoint(EndpointRef e, long issued, long succeeded, long inFlight) {
    return UpstreamEndpointStats.newBuilder().setAddress(address(e)).setTotalIssuedRequests(issued)
        .setTotalSuccessfulRequests(succeeded).setTotalRequestsInProgress(inFlight).build();
  }

  /** Envoy's report for zone a: the locality's sums with its endpoints' figures inside. */
  private void report(UpstreamEndpointStats... endpoints) {
    UpstreamLocalityStats.Builder zone = UpstreamLocalityStats.newBuilder()
        .setLocality(io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone("a"));
    for (UpstreamEndpointStats e : endpoints) {
      zone.setTotalIssuedRequests(zone.getTotalIssuedRequests() + e.getTotalIssuedRequests())
          .setTotalSuccessfulRequests(zone.getTotalSuccessfulRequests() + e.getTotalSuccessfulRequests())
          .setTotalRequestsInProgress(zone.getTotalRequestsInProgress() + e.getTotalRequestsInProgress())
          .addUpstreamEndpointStats(e);
    }
    envoy.report(ClusterStats.newBuilder().setClusterName("greeter").addUpstreamLocalityStats(zone).build());
  }

  private static ClientStatus holder(String nodeId, long synced, Instant ackedAt) {
    TypeStatus eds = new TypeStatus("v" + synced, synced, ackedAt, "v" + synced, synced, ackedAt, synced, false, 1,
        null, 0, 1, 100, Map.of());
    return new ClientStatus(nodeId, "edge", "a", "envoy", "", 1, false, ackedAt, "", synced, Duration.ZERO,
        Map.of(XdsType.ENDPOINT.typeUrl(), eds));
  }

  @Test
  void theDrainingEndpointsOwnInFlightCountHoldsTheDrainAndItsIdleEndsItWhileItsZoneIsBusy()
      throws InterruptedException {
    envoy = lrs.open("envoy-1");
    assertThat(envoy.answer().getReportEndpointGranularity()).isTrue();

    Instant acked = Instant.now();
    OperatorOverride.Drain drain = new OperatorOverride.Drain(B2, "alice", "kernel upgrade", acked,
        Duration.ofMinutes(5));
    List<ClientStatus> holders = List.of(holder("envoy-1", 7, acked));

    // A stream open to b2, two to b1: the zone has 3 in flight, b2 itself 1.
    report(endpoint(B1, 2, 0, 2), endpoint(B2, 1, 0, 1));
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      DrainViews.DrainView v = DrainViews.of(drain, 7L, holders, loads, Instant.now());
      assertThat(v.safeToRemove()).isFalse();
      assertThat(v.verdict()).startsWith("in flight: 1 (envoy-1 1); deadline in ");
    });

    // b2's stream ends; b1 stays busy, so the zone never goes idle. Envoy keeps reporting each interval.
    report(endpoint(B1, 0, 0, 2), endpoint(B2, 0, 1, 0));
    await().atMost(Duration.ofSeconds(30)).pollInterval(INTERVAL).untilAsserted(() -> {
      report(endpoint(B1, 1, 1, 2));
      DrainViews.DrainView v = DrainViews.of(drain, 7L, holders, loads, Instant.now());
      assertThat(v.basis()).isEqualTo(DrainProgress.Basis.IDLE);
      assertThat(v.verdict()).isEqualTo(
          "every client ACKed and every reporting client idle for one interval (300ms)");
    });
    // The zone as a whole was busy throughout: only the endpoint's own figure could end the drain early.
    assertThat(reporting.fleetLoad().work("greeter", FleetDrainLoads.locality(snapshot, B2)))
        .singleElement().satisfies(w -> assertThat(w.inFlight()).isEqualTo(2));
  }

  /**
   * A follower serves, and a new leader takes over, an epoch read back from the store: its
   * assignments are stored bytes, no built message. The drain must still find the endpoint's
   * locality there, or every drain on that replica would wait for its deadline.
   */
  @Test
  void anEpochRestoredFromTheStorePlacesTheEndpointInItsLocality() {
    Snapshot restored = Snapshot.fromEnvelope(snapshot.toEnvelope());

    assertThat(restored.resources(XdsType.ENDPOINT).get("greeter")).isInstanceOf(XdsResource.Stored.class);
    assertThat(FleetDrainLoads.locality(restored, B2))
        .isEqualTo(new io.signalbox.controlplane.telemetry.Locality("", "a", ""))
        .isEqualTo(FleetDrainLoads.locality(snapshot, B2));
  }
}
