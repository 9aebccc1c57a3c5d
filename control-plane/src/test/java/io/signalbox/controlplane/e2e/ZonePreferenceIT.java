package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.NameResolverRegistry;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.grpc.xds.XdsNameResolverProvider;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.store.StoreSettings;
import io.signalbox.yaml.Parsed;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zone preference (issue 44 item 4) as grpc-java's grpc-xds 1.85.1 meets it: six backends, two in
 * each of zones a, b and c, one cluster with {@code zonePreference: SAME_ZONE} and {@code
 * minEligible: 2}, and two clients in one JVM whose bootstraps name zone a and zone b (each its own
 * xDS client, through {@link XdsNameResolverProvider#createForTest}). Each reaches only its own
 * zone's backends while that zone has two eligible ones; once an operator's drain (zone a) or
 * ejection (zone b) leaves it one, its clients get the cluster with no preference and reach the
 * other zones, while the other zone's client stays home. In this order: the drain is undone, the
 * ejection (bounded, on its own clock) is last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZonePreferenceIT {

  private static final List<String> BACKENDS = List.of("a-1", "a-2", "b-1", "b-2", "c-1", "c-2");
  private static final int CALLS = 60;

  @TempDir static Path dir;
  static TrafficBackends backends;
  static SignalboxServer server;
  static Admin admin;
  static ManagedChannel zoneA;
  static ManagedChannel zoneB;

  @BeforeAll
  static void start() throws Exception {
    Workspace ws = new Workspace(dir);
    backends = new TrafficBackends().answering(BACKENDS.toArray(String[]::new));
    int xdsPort = Workspace.freePort();
    ws.write("zones.yaml", "clusters:\n  greeter:\n" + BACKENDS.stream()
        .map(b -> "    - { address: 127.0.0.1, port: " + backends.port(b) + ", zone: " + b.charAt(0) + " }\n")
        .collect(Collectors.joining()));
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d }
        rollout: { settle: 1s }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./zones.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        listeners:
          - { name: greeter, apiListener: true, routeConfig: greeter }
        routeConfigs:
          - name: greeter
            virtualHosts:
              - { name: greeter, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: greeter } ] }
        clusters:
          - { name: greeter, zonePreference: SAME_ZONE, minEligible: 2, maxEjectionPercent: 50 }
        """.formatted(xdsPort));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    server = SignalboxServer.start(config, cfg,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    admin = new Admin(server.adminPort());
    zoneA = channel(xdsPort, "a");
    zoneB = channel(xdsPort, "b");
  }

  @AfterAll
  static void stop() throws Exception {
    for (ManagedChannel c : new ManagedChannel[] {zoneA, zoneB}) {
      if (c != null) {
        c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  /** A channel of its own xDS client, whose node says it runs in {@code zone}. */
  private static ManagedChannel channel(int xdsPort, String zone) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, ?> bootstrap = (Map<String, ?>) io.grpc.internal.JsonParser.parse("""
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}],
          "server_features": ["xds_v3"]}],
         "node": {"id": "zone-%s-client", "cluster": "e2e", "locality": {"zone": "%s"}}}
        """.formatted(xdsPort, zone, zone));
    String scheme = "xds-zone-" + zone;
    NameResolverRegistry.getDefaultRegistry().register(XdsNameResolverProvider.createForTest(scheme, bootstrap));
    return Grpc.newChannelBuilder(scheme + ":///greeter", InsecureChannelCredentials.create()).build();
  }

  /** The backends that answered {@link #CALLS} calls, sorted. */
  private static Set<String> reached(ManagedChannel channel) {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < CALLS; i++) {
      out.add(SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage());
    }
    return out;
  }

  private static String endpoint(String backend) {
    return "127.0.0.1:" + backends.port(backend);
  }

  @Test
  @Order(1)
  void aZoneAClientReachesOnlyZoneAUntilADrainLeavesItBelowTheMinimumThenEveryZoneThenZoneAAgain() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> reached(zoneA).equals(Set.of("a-1", "a-2")));
    assertThat(reached(zoneA)).containsExactly("a-1", "a-2");

    admin.sendJson("POST", "/api/v1/clusters/greeter/endpoints/" + endpoint("a-1") + "/drain",
        "{\"reason\": \"zone test\", \"deadline\": \"1h\"}", 202);
    // One eligible endpoint in zone a, fewer than minEligible 2: no preference for zone a.
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> reached(zoneA).stream().anyMatch(b -> !b.startsWith("a-")));
    Set<String> failedOver = reached(zoneA);
    assertThat(failedOver).doesNotContain("a-1").anyMatch(b -> b.startsWith("b-") || b.startsWith("c-"));
    assertThat(reached(zoneB)).as("zone b keeps its preference").containsExactly("b-1", "b-2");

    admin.sendJson("DELETE", "/api/v1/clusters/greeter/endpoints/" + endpoint("a-1") + "/drain", null, 200);
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> reached(zoneA).equals(Set.of("a-1", "a-2")));
  }

  @Test
  @Order(2)
  void aZoneBClientReachesOnlyZoneBUntilAnEjectionLeavesItBelowTheMinimum() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> reached(zoneB).equals(Set.of("b-1", "b-2")));
    assertThat(reached(zoneB)).containsExactly("b-1", "b-2");

    admin.sendJson("POST", "/api/v1/clusters/greeter/endpoints/" + endpoint("b-2") + "/eject",
        "{\"reason\": \"zone test\"}", 202);
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> reached(zoneB).stream().anyMatch(b -> !b.startsWith("b-")));
    assertThat(reached(zoneB)).doesNotContain("b-2").anyMatch(b -> b.startsWith("a-") || b.startsWith("c-"));
    assertThat(reached(zoneA)).as("zone a keeps its preference").allMatch(b -> b.startsWith("a-"));
  }
}
