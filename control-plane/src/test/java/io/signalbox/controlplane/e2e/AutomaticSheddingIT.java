package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.reconcile.AutomaticDrops;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Automatic shedding end to end (issue 31) with grpc-java's own xDS client and its load reports:
 * three backends of a declared capacity, {@code maxUtilization: 1.0}, steady unary load of twice
 * one backend's capacity. Two backends drained → an epoch whose EDS drops about half the calls as
 * {@code signalbox_overload}; the client fails about that share "Dropped: signalbox_overload"; the
 * survivor's admitted rate stays within its capacity; status and the epoch's provenance name the
 * cause. Backends back → the drop is lifted in steps of {@code step} points per {@code window} to 0.
 * Before the drain, {@code POST /api/v1/plan} of the same file predicts that drop (issue 43).
 *
 * <p>At the figures: 100 rps per backend, 200 rps of load.
 */
class AutomaticSheddingIT {

  static final int CAPACITY = 100;
  static final long PERIOD_MS = 5; // 200 rps
  static final String ADMISSION = "{ maxUtilization: 1.0, step: 10, window: 3s }";

  @TempDir static Path dir;
  static Workspace ws;
  static final List<Server> backends = new ArrayList<>();
  static final Map<Integer, AtomicLong> served = new ConcurrentHashMap<>();
  static final AtomicLong issued = new AtomicLong();
  static final List<String> failures = new CopyOnWriteArrayList<>();
  static SignalboxServer server;
  static ManagedChannel channel;
  static GrpcXdsClient client;
  static ScheduledExecutorService traffic;
  static Instant trafficStarted;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    for (int i = 0; i < 3; i++) {
      AtomicLong count = new AtomicLong();
      Server backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
            @Override
            public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
              count.incrementAndGet();
              response.onNext(SimpleResponse.getDefaultInstance());
              response.onCompleted();
            }
          }).build().start();
      backends.add(backend);
      served.put(backend.getPort(), count);
    }
    ws.write("endpoints.yaml", endpoints("READY", "READY", "READY"));
    int xdsPort = Workspace.freePort();
    Path config = ws.write("signalbox.yaml", Workspace.shedding(Workspace.config(xdsPort, "ROUND_ROBIN"), xdsPort,
        CAPACITY, ADMISSION));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-auto-shed");
    channel = client.channel("greeter");
    // Load only once the client can call: calls buffered while xDS resolves would arrive as one burst.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> SimpleServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(5, TimeUnit.SECONDS).unaryRpc(SimpleRequest.getDefaultInstance()) != null);
    trafficStarted = Instant.now();
    traffic = Executors.newSingleThreadScheduledExecutor();
    traffic.scheduleAtFixedRate(AutomaticSheddingIT::callOnce, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    if (traffic != null) {
      traffic.shutdownNow();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    for (Server b : backends) {
      b.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static void callOnce() {
    issued.incrementAndGet();
    SimpleServiceGrpc.newStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance(), new StreamObserver<>() {
          @Override
          public void onNext(SimpleResponse value) {}

          @Override
          public void onError(Throwable t) {
            failures.add(t instanceof StatusRuntimeException e ? e.getStatus().getCode() + ": "
                + e.getStatus().getDescription() : t.toString());
          }

          @Override
          public void onCompleted() {}
        });
  }

  private static String endpoints(String... states) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 0; i < 3; i++) {
      out.append("    - { address: 127.0.0.1, port: ").append(backends.get(i).getPort())
          .append(", zone: a, state: ").append(states[i]).append(" }\n");
    }
    return out.toString();
  }

  private static Snapshot epoch() {
    return server.reconciler().view().snapshot();
  }

  /** The automatic drop the served epoch carries, in parts per million. */
  private static int drop() {
    return AutomaticDrops.perMillion(epoch(), "greeter");
  }

  private static ClusterLoadAssignment assignment() throws Exception {
    var r = epoch().resources(XdsType.ENDPOINT).get("greeter");
    return r.content(ClusterLoadAssignment.class);
  }

  private static long ackedEndpointsEpoch() {
    return server.xds().clients().stream().filter(c -> c.nodeId().equals("grpc-auto-shed"))
        .mapToLong(c -> {
          var t = c.types().get(XdsType.ENDPOINT.typeUrl());
          return t == null ? 0 : t.syncedEpoch();
        }).max().orElse(0);
  }

  @Test
  void losingTwoOfThreeBackendsShedsAboutHalfAndTheDropIsLiftedInStepsWhenTheyReturn() throws Exception {
    // Demand (≈ 200 rps) is under the capacity of three (300 rps): reported, and nothing is dropped.
    // Steady: a full demand window (5 intervals) of reports of the steady load, and no drop.
    await().atMost(Duration.ofSeconds(90)).until(() -> drop() == 0 && server.fleetLoad().load("greeter",
        trafficStarted.plusSeconds(1)).localities().stream().map(l -> l.intervalStart()).distinct().count() >= 6);

    // Planned first (issue 43): the plan predicts the drop admission then decides, and changes nothing.
    String drain = endpoints("READY", "DRAINING", "DRAINING");
    long planned = epoch().epoch();
    JsonNode plan = new Admin(server.adminPort()).sendJson("POST", "/api/v1/plan", new ObjectMapper()
        .writeValueAsString(Map.of("endpointFiles", Map.of(dir.resolve("endpoints.yaml").toString(), drain))), 200);
    assertThat(plan.path("exitCode").asInt()).isEqualTo(4);
    assertThat(plan.path("holds")).isEmpty();
    JsonNode effect = plan.path("capacity").path(0);
    assertThat(effect.path("cluster").asText()).isEqualTo("greeter");
    assertThat(effect.path("after").path("rps").asLong()).isEqualTo(CAPACITY);
    assertThat(effect.path("says").asText()).startsWith("this would drop about ").contains(" of greeter's calls");
    assertThat(effect.path("drainsStarted").toString()).contains(":" + backends.get(1).getPort() + "\"");
    double predicted = Double.parseDouble(effect.path("dropAfter").asText().replace("%", "")) / 100;
    System.out.printf("plan: %s%n", effect.path("says").asText());
    assertThat(predicted).isBetween(0.3, 0.7);
    assertThat(epoch().epoch()).isEqualTo(planned);

    Instant drained = Instant.now();
    ws.write("endpoints.yaml", drain);

    // The next decision after the drain is published sees 100 rps of capacity for ≈ 200 rps.
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> drop() > 0);
    Duration took = Duration.between(drained, Instant.now());
    int shed = drop();
    System.out.printf("automatic drop %d ppm %s after the drain; cause: %s%n", shed, took,
        epoch().provenance().getAutomaticDropsMap().get("greeter"));
    assertThat(shed).isBetween(300_000, 700_000);
    // The prediction came true: the drop decided is the one planned, give or take the demand's drift.
    assertThat(shed / 1e6).isCloseTo(predicted, org.assertj.core.data.Offset.offset(0.15));
    var policy = assignment().getPolicy();
    assertThat(policy.getDropOverloads(policy.getDropOverloadsCount() - 1).getCategory())
        .isEqualTo("signalbox_overload");
    assertThat(epoch().provenance().getAutomaticDropsMap().get("greeter"))
        .startsWith("eligible capacity " + CAPACITY + " rps (1 endpoints), limit " + CAPACITY + ".0 rps, demand ")
        .contains(": drop raised to ");
    var automatic = new Admin(server.adminPort()).sendJson("GET", "/api/v1/status", null, 200).path("automaticDrops");
    assertThat(automatic.path(0).path("cluster").asText()).isEqualTo("greeter");
    assertThat(automatic.path(0).path("category").asText()).isEqualTo("signalbox_overload");
    assertThat(automatic.path(0).path("cause").asText()).startsWith("eligible capacity " + CAPACITY + " rps");

    // The client holds it: about that share of its calls fail "Dropped", the survivor stays within capacity.
    long epochWithDrop = epoch().epoch();
    await().atMost(Duration.ofSeconds(30)).until(() -> ackedEndpointsEpoch() >= epochWithDrop);
    int failedBefore = failures.size();
    long issuedBefore = issued.get();
    AtomicLong survivor = served.get(backends.get(0).getPort());
    long servedBefore = survivor.get();
    long from = System.nanoTime();
    await().atMost(Duration.ofSeconds(60)).until(() -> issued.get() - issuedBefore >= 1200);
    double seconds = (System.nanoTime() - from) / 1e9;
    // A copy first: the callers keep adding failures, and a live sub-list of a CopyOnWriteArrayList
    // throws ConcurrentModificationException once the list under it changes.
    List<String> failuresNow = List.copyOf(failures);
    List<String> failed = failuresNow.subList(failedBefore, failuresNow.size());
    long calls = issued.get() - issuedBefore;
    double admittedRps = (survivor.get() - servedBefore) / seconds;
    double share = failed.size() / (double) calls;
    System.out.printf("%d calls in %.1f s: %.1f%% dropped, survivor admitted %.1f rps (capacity %d)%n", calls,
        seconds, 100 * share, admittedRps, CAPACITY);
    assertThat(failed).allMatch(f -> f.equals("UNAVAILABLE: Dropped: signalbox_overload"));
    assertThat(share).isBetween(drop() / 1e6 - 0.15, drop() / 1e6 + 0.15);
    assertThat(admittedRps).isLessThanOrEqualTo(CAPACITY * 1.1);

    // Backends return: the drop falls by at most 10 points per 3 s window, down to 0.
    ws.write("endpoints.yaml", endpoints("READY", "READY", "READY"));
    List<Integer> seen = new ArrayList<>(List.of(drop()));
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
      int now = drop();
      if (now != seen.get(seen.size() - 1)) {
        seen.add(now);
      }
      return now == 0;
    });
    System.out.println("drops while lifting (ppm): " + seen);
    for (int i = 1; i < seen.size(); i++) {
      assertThat(seen.get(i)).as("steps %s", seen).isLessThan(seen.get(i - 1))
          .isGreaterThanOrEqualTo(seen.get(i - 1) - 100_000);
    }
    assertThat(seen.size()).as("steps %s", seen).isGreaterThanOrEqualTo(3);
  }
}
