package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.source.kubernetes.FaultyApiServer;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.StoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault drill: Signalbox fed by EndpointSlices from an API server that misbehaves
 * ({@link FaultyApiServer}, fabric8's mock server), {@link DrillScale#kubernetesCycles} times over:
 * it goes away for {@link DrillScale#apiServerOutage}; its watches are answered {@code 410 Gone}
 * while a slice is deleted; its lists come back empty. Each time Signalbox fails static: grpc-xds
 * keeps calling the last good endpoints without a failed RPC, no epoch drops them, and
 * {@code GET /api/v1/status} says why ({@code sources.kubernetes} STALE, {@code sourceProblems});
 * once the API server behaves again the source is FRESH and what changed meanwhile is applied.
 */
class KubernetesDrillIT {

  private static final DrillScale SCALE = DrillScale.fromSystemProperties();
  private static final String CLUSTER = "default/greeter:grpc";

  @TempDir Path dir;
  private FaultyApiServer api;
  private Backends backends;
  private SignalboxServer server;
  private Traffic traffic;
  private XdsRecorder client;
  private Admin admin;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (traffic != null) {
      traffic.close();
    }
    if (server != null) {
      server.close();
    }
    if (api != null) {
      api.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @Test
  void failsStaticWhenTheApiServerIsGoneAnswers410OrListsNothing() throws Exception {
    DrillReport report = new DrillReport("kubernetes-drill", SCALE);
    api = FaultyApiServer.start();
    backends = Backends.start("b1", "b2", "b3");
    api.client().resource(new ServiceBuilder()
        .withNewMetadata().withNamespace("default").withName("greeter").endMetadata()
        .withNewSpec().addNewPort().withName("grpc").withPort(80).endPort().endSpec()
        .build()).create();
    putSlice("b1");
    putSlice("b2");
    int xdsPort = Workspace.freePort();
    Path configFile = new Workspace(dir).write("signalbox.yaml", config(xdsPort, api.url()));
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(configFile)).value();
    server = SignalboxServer.start(configFile, config,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    admin = new Admin(server.adminPort());
    traffic = new Traffic(GrpcXdsClient.bootstrap(xdsPort, "kubernetes-grpc").open("greeter"));
    await("first traffic").atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> traffic.calls(12).equals(Set.of("b1", "b2")));
    client = XdsRecorder.connect(xdsPort, "kubernetes-client", List.of(CLUSTER));
    traffic.startCalling();

    report.columns("cycle", "fault", "noticed (STALE, why in status)", "held for", "FRESH again after");
    List<Duration> noticed = new ArrayList<>();
    for (int cycle = 1; cycle <= SCALE.kubernetesCycles(); cycle++) {
      putSlice("b3");
      awaitServing(Set.of("b1", "b2", "b3"), "cycle " + cycle + ": b3 added");

      // 1. The API server is unreachable: the last endpoints stay.
      long epoch = admin.epoch();
      Instant gone = Instant.now();
      api.stop();
      Duration stale = awaitStale("cannot reach the Kubernetes API server at " + api.url() + "/");
      holdStatic(epoch, Set.of("b1", "b2", "b3"), SCALE.apiServerOutage().minus(Duration.between(gone, Instant.now())));
      Duration held = Duration.between(gone, Instant.now());
      api.restart();
      Instant back = Instant.now();
      awaitFresh();
      report.row(cycle, "API server unreachable", stale, held, Duration.between(back, Instant.now()));
      noticed.add(stale);

      // 2. Watches answered 410 Gone while b3's slice is deleted: only a new list can tell; it does.
      Instant expired = Instant.now();
      api.expireWatches();
      relisted();
      api.client().discovery().v1().endpointSlices().inNamespace("default").withName("greeter-b3").delete();
      relisted();
      api.resumeWatches();
      awaitServing(Set.of("b1", "b2"), "cycle " + cycle + ": b3 deleted while the watches were gone");
      await("b3 drained and gone").atMost(Duration.ofSeconds(60))
          .until(() -> client.latest(CLUSTER).endpoints().keySet().equals(addresses(Set.of("b1", "b2"))));
      awaitFresh();
      report.row(cycle, "watches answered 410 Gone, a slice deleted meanwhile", "n/a (lists work)",
          Duration.between(expired, Instant.now()), "the deletion applied");

      // 3. Lists come back empty: the last endpoints stay, and status says why.
      epoch = admin.epoch();
      Instant empty = Instant.now();
      api.listEmpty(true);
      api.expireWatches();
      relisted();
      api.resumeWatches();
      Duration emptied = awaitStale("listed no Services and no EndpointSlices where there were 2 endpoints");
      holdStatic(epoch, Set.of("b1", "b2"), Duration.ofSeconds(3));
      held = Duration.between(empty, Instant.now());
      api.listEmpty(false);
      api.expireWatches();
      relisted();
      api.resumeWatches();
      back = Instant.now();
      awaitFresh();
      report.row(cycle, "lists come back empty", emptied, held, Duration.between(back, Instant.now()));
      noticed.add(emptied);
    }

    assertThat(client.assignments()).as("every assignment a client was sent still has b1 and b2")
        .allSatisfy(a -> assertThat(a.serving()).containsAll(addresses(Set.of("b1", "b2"))));
    ClientHistory.assertVersionsNeverWentBack(List.of(client));
    assertThat(traffic.failures()).as("RPCs that failed during the drill").isEmpty();
    report.line("%d cycles of three faults; %d RPCs, none failed; every EDS response kept the last good endpoints",
        SCALE.kubernetesCycles(), traffic.succeeded());
    report.line("fault to STALE with the reason in GET /api/v1/status: %s", DrillReport.spread(noticed));
    report.write();
  }

  /** Nothing is published and clients keep {@code backendNames} for {@code duration}, the source STALE. */
  private void holdStatic(long epoch, Set<String> backendNames, Duration duration) {
    Duration d = duration.isNegative() ? Duration.ZERO : duration;
    await("failing static").during(d).atMost(d.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> {
          assertThat(admin.status().get("sources").get("kubernetes").asText()).isEqualTo("STALE");
          assertThat(admin.epoch()).as("nothing published").isEqualTo(epoch);
          assertThat(client.latest(CLUSTER).serving()).isEqualTo(addresses(backendNames));
          assertThat(traffic.calls(6)).isEqualTo(backendNames);
        });
  }

  /** Waits for the source to be STALE with {@code why} among its problems in the status; how long it took. */
  private Duration awaitStale(String why) {
    Instant from = Instant.now();
    await("STALE: " + why).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> {
          JsonNode status = admin.status();
          assertThat(status.get("sources").get("kubernetes").asText()).isEqualTo("STALE");
          assertThat(status.get("sourceProblems").path("kubernetes").toString()).contains(why);
        });
    return Duration.between(from, Instant.now());
  }

  private void awaitFresh() {
    await("FRESH").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
      JsonNode status = admin.status();
      assertThat(status.get("sources").get("kubernetes").asText()).isEqualTo("FRESH");
      assertThat(status.get("sourceProblems").has("kubernetes")).isFalse();
    });
  }

  private void awaitServing(Set<String> backendNames, String when) {
    await(when).atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
      assertThat(client.latest(CLUSTER).serving()).isEqualTo(addresses(backendNames));
      assertThat(traffic.calls(12)).isEqualTo(backendNames);
    });
  }

  /** Both informers have listed again since now. */
  private void relisted() {
    int before = api.fullLists();
    await("relisted").atMost(Duration.ofSeconds(60)).until(() -> api.fullLists() >= before + 2);
  }

  private Set<String> addresses(Set<String> names) {
    Set<String> out = new TreeSet<>();
    names.forEach(b -> out.add("127.0.0.1:" + backends.port(b)));
    return out;
  }

  /** One backend's slice (each backend has its own port, and ports are per slice). */
  private void putSlice(String backend) {
    api.client().resource(new EndpointSliceBuilder()
        .withNewMetadata().withNamespace("default").withName("greeter-" + backend)
        .addToLabels("kubernetes.io/service-name", "greeter").endMetadata()
        .withAddressType("IPv4")
        .addNewPort().withName("grpc").withPort(backends.port(backend)).withProtocol("TCP").endPort()
        .addNewEndpoint().withAddresses("127.0.0.1").withZone("a")
        .withNewConditions().withReady(true).withServing(true).withTerminating(false).endConditions().endEndpoint()
        .build()).createOr(existing -> existing.update());
  }

  private static String config(int xdsPort, String masterUrl) {
    return """
        xds: { port: %d }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          kubernetes: { enabled: true, namespaces: [ default ], masterUrl: "%s" }
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        clusterDefaults: { connectTimeout: 1s, drainTimeout: 1s }
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: "%s"
        """.formatted(xdsPort, masterUrl, CLUSTER);
  }
}
