package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Readiness to first traffic from hand-built published epochs and load-report rows: which endpoints
 * count as newly READY, where their traffic may show, and the delay with its interval resolution.
 */
class FirstTrafficTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final Instant T0 = Instant.parse("2026-12-04T05:00:00Z");
  private static final Locality ZONE_A = new Locality("", "a", "");

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private final FakeFleetLoad load = new FakeFleetLoad(INTERVAL);
  private final AtomicReference<Snapshot> published = new AtomicReference<>();
  private final Map<Long, Snapshot> epochs = new HashMap<>();
  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };
  private final FirstTraffic firstTraffic = new FirstTraffic(published::get, epochs::get, load, clock);

  /** An endpoint of cluster greeter: {@code own} gives it a sub-zone of its own, as loadReportingPerEndpoint does. */
  private record Ep(String address, EndpointState state, boolean own) {}

  /** Publishes epoch {@code epoch} at {@code at} holding {@code endpoints}; WARMING ones are left out of EDS. */
  private void publish(long epoch, Instant at, Ep... endpoints) {
    Map<String, LocalityLbEndpoints.Builder> localities = new LinkedHashMap<>();
    List<EndpointSpec> specs = new java.util.ArrayList<>();
    for (Ep e : endpoints) {
      specs.add(new EndpointSpec(e.address(), 8080, "a", 1, 0, e.state(), "file"));
      if (e.state() == EndpointState.WARMING) {
        continue;
      }
      String subZone = e.own() ? e.address() + ":8080" : "";
      localities.computeIfAbsent(subZone, s -> LocalityLbEndpoints.newBuilder()
              .setLocality(io.envoyproxy.envoy.config.core.v3.Locality.newBuilder().setZone("a").setSubZone(s)))
          .addLbEndpoints(LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
              .setSocketAddress(SocketAddress.newBuilder().setAddress(e.address()).setPortValue(8080)))));
    }
    ClusterLoadAssignment.Builder cla = ClusterLoadAssignment.newBuilder().setClusterName("greeter");
    localities.values().forEach(cla::addEndpoints);
    Snapshot s = builder.candidate(List.of(
            new TranslatedResource(XdsType.CLUSTER, "greeter", Cluster.newBuilder().setName("greeter").build(),
                Set.of("greeter")),
            new TranslatedResource(XdsType.ENDPOINT, "greeter", cla.build(), Set.of())),
        Map.of("greeter", specs), published.get(), Provenance.newBuilder().setCause("test").build())
        .seal(epoch, at);
    epochs.put(epoch, s);
    published.set(s);
  }

  private LocalityLoad row(Instant start, Locality locality, String endpoint, long issued) {
    return new LocalityLoad(start, "greeter", locality, endpoint, issued, issued, 0, 0);
  }

  private static Locality own(String address) {
    return new Locality("", "a", address + ":8080");
  }

  @Test
  void anEndpointAddedReadyInItsOwnLocalityShowsTheDelayToTheEndOfItsFirstIntervalWithRequests() {
    publish(1, T0, new Ep("10.0.0.1", EndpointState.READY, true));
    firstTraffic.poll();
    assertThat(firstTraffic.of("greeter")).isEmpty(); // the first epoch seen is a baseline

    Instant ready = T0.plusSeconds(12);
    publish(2, ready, new Ep("10.0.0.1", EndpointState.READY, true), new Ep("10.0.0.2", EndpointState.READY, true));
    now.set(T0.plusSeconds(13));
    firstTraffic.poll();
    assertThat(firstTraffic.of("greeter")).containsExactly(
        new LoadView.Readiness("10.0.0.2:8080", 2, ready, null, null, null));

    // Nothing issued to it in [10s, 20s); 7 requests in [20s, 30s): seen by 30s, 18s after its epoch.
    load.row(row(T0.plusSeconds(10), own("10.0.0.2"), "", 0)).row(row(T0.plusSeconds(10), own("10.0.0.1"), "", 9))
        .row(row(T0.plusSeconds(20), own("10.0.0.2"), "", 7));
    now.set(T0.plusSeconds(25));
    firstTraffic.poll();
    assertThat(firstTraffic.of("greeter")).extracting(LoadView.Readiness::delayMs).containsExactly((Long) null);
    now.set(T0.plusSeconds(31));
    firstTraffic.poll();

    assertThat(firstTraffic.of("greeter")).containsExactly(
        new LoadView.Readiness("10.0.0.2:8080", 2, ready, T0.plusSeconds(30), 18_000L, LoadView.Readiness.LOCALITY));
  }

  @Test
  void anEndpointSharingItsZoneWaitsForPerEndpointFiguresAndAWarmedUpOneCountsFromItsReadyEpoch() {
    publish(1, T0, new Ep("10.0.0.1", EndpointState.READY, false), new Ep("10.0.0.2", EndpointState.WARMING, false));
    firstTraffic.poll();
    // Epoch 2 makes b2 READY; epoch 3 changes nothing for it and is published before the next poll.
    publish(2, T0.plusSeconds(5), new Ep("10.0.0.1", EndpointState.READY, false),
        new Ep("10.0.0.2", EndpointState.READY, false));
    publish(3, T0.plusSeconds(8), new Ep("10.0.0.1", EndpointState.READY, false),
        new Ep("10.0.0.2", EndpointState.READY, false), new Ep("10.0.0.3", EndpointState.WARMING, false));
    // The zone's figure counts b1's requests too: it says nothing of b2's. Envoy's endpoint row does.
    load.row(row(T0, ZONE_A, "", 50)).row(row(T0.plusSeconds(10), ZONE_A, "", 50))
        .row(row(T0.plusSeconds(10), ZONE_A, "10.0.0.2:8080", 4));
    now.set(T0.plusSeconds(21));
    firstTraffic.poll();

    assertThat(firstTraffic.of("greeter")).containsExactly(new LoadView.Readiness("10.0.0.2:8080", 2,
        T0.plusSeconds(5), T0.plusSeconds(20), 15_000L, LoadView.Readiness.ENDPOINT));
  }

  @Test
  void anEndpointThatLeavesReadyBeforeAnyTrafficIsNoLongerFollowed() {
    publish(1, T0);
    firstTraffic.poll();
    publish(2, T0.plusSeconds(1), new Ep("10.0.0.2", EndpointState.READY, true));
    firstTraffic.poll();
    publish(3, T0.plusSeconds(2), new Ep("10.0.0.2", EndpointState.DRAINING, true));
    firstTraffic.poll();

    assertThat(firstTraffic.of("greeter")).isEmpty();
  }

  @Test
  void eachDelayIsObservedOnceInTheClustersBoundedHistogram() {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    firstTraffic.bindTo(meters);
    publish(1, T0);
    firstTraffic.poll();
    publish(2, T0.plusSeconds(3), new Ep("10.0.0.2", EndpointState.READY, true));
    firstTraffic.poll();
    load.row(row(T0, own("10.0.0.2"), "", 2));
    now.set(T0.plusSeconds(11));
    firstTraffic.poll();
    now.set(T0.plusSeconds(21));
    firstTraffic.poll();

    // Ready at 3s, first seen in [0s, 10s): 7s, once, although the poll at 21s saw the row again.
    String scrape = meters.scrape();
    assertThat(scrape).contains("signalbox_load_first_traffic_seconds_count{cluster=\"greeter\"} 1");
    assertThat(scrape).contains("signalbox_load_first_traffic_seconds_bucket{cluster=\"greeter\",le=\"5.0\"} 0");
    assertThat(scrape).contains("signalbox_load_first_traffic_seconds_bucket{cluster=\"greeter\",le=\"10.0\"} 1");
    assertThat(scrape).contains("signalbox_load_first_traffic_seconds_bucket{cluster=\"greeter\",le=\"600.0\"} 1");
  }
}
