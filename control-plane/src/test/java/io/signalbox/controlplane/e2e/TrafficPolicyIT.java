package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traffic policy as grpc-java's own xDS client (grpc-xds 1.85) applies it, against real backends on
 * loopback: ring-hash affinity on a header, priority failover (priorities sharing a zone and not),
 * retries, client-side weighted round robin from ORCA load reports, and what grpc-xds accepts but
 * ignores. One Signalbox and one client JVM serve every test, each through its own listener
 * ({@code xds:///name}) and endpoint file, so the whole class costs one fork. docs/traffic-policy.md
 * cites these tests cell by cell.
 */
class TrafficPolicyIT {

  private static final List<String> RING = IntStream.rangeClosed(1, 10).mapToObj(i -> "h" + i).toList();

  @TempDir static Path dir;
  static Workspace ws;
  static TrafficBackends backends;
  static SignalboxServer server;
  static GrpcXdsClient client;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = new TrafficBackends()
        .answering(RING.toArray(String[]::new))
        .answering("p0a", "p0b", "p1", "ok")
        .unavailable("down")
        .reportingLoad("busy", 0.9)
        .reportingLoad("idle", 0.1);
    int xdsPort = Workspace.freePort();
    ws.write("affinity.yaml", cluster("affinity", RING.stream().map(n -> endpoint(n, "a", 0, "READY")).toList()));
    ws.write("failover.yaml", failover("READY", "READY"));
    ws.write("retry.yaml", cluster("flaky", List.of(endpoint("ok", "a", 0, "READY"), endpoint("down", "a", 0, "READY"))));
    ws.write("wrr.yaml", cluster("orca", List.of(endpoint("busy", "a", 0, "READY"), endpoint("idle", "a", 0, "READY")))
        + cluster("ignored", RING.subList(0, 3).stream().map(n -> endpoint(n, "a", 0, "READY")).toList())
        .replace("clusters:\n", "")
        + cluster("near", List.of(endpoint("h1", "a", 0, "READY"), endpoint("h2", "b", 0, "READY")))
        .replace("clusters:\n", ""));
    Path config = ws.write("signalbox.yaml", TrafficPolicyConfig.yaml(xdsPort));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-traffic");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static String endpoint(String backend, String zone, int priority, String state) {
    return "    - { address: 127.0.0.1, port: " + backends.port(backend) + ", zone: '" + zone + "', priority: "
        + priority + ", state: " + state + " }\n";
  }

  private static String cluster(String name, List<String> endpoints) {
    return "clusters:\n  " + name + ":\n" + String.join("", endpoints);
  }

  /** Two priority-0 endpoints and one priority-1 endpoint, once all in zone a and once over zones a and b. */
  private static String failover(String p0a, String p0b) {
    return cluster("one-zone", List.of(endpoint("p0a", "a", 0, p0a), endpoint("p0b", "a", 0, p0b),
            endpoint("p1", "a", 1, "READY")))
        + cluster("two-zones", List.of(endpoint("p0a", "a", 0, p0a), endpoint("p0b", "b", 0, p0b),
            endpoint("p1", "a", 1, "READY"))).replace("clusters:\n", "");
  }

  /** One call as {@code user} (null: no x-user header); the answering backend's name. */
  private static String call(String listener, String user) {
    return call(client.channel(listener), user);
  }

  private static String call(ManagedChannel channel, String user) {
    var stub = SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
    if (user != null) {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), user);
      stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    return stub.unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static Set<String> calls(String listener, int n) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(call(listener, null));
    }
    return seen;
  }

  private static Map<String, String> backendOfEachUser(int users) {
    return backendOfEachUser("affinity", users);
  }

  private static Map<String, String> backendOfEachUser(String listener, int users) {
    Map<String, String> owner = new LinkedHashMap<>();
    for (int u = 0; u < users; u++) {
      owner.put("user-" + u, call(listener, "user-" + u));
    }
    return owner;
  }

  @Test
  void ringHashOnAHeaderKeepsEachUserOnOneBackendAndADrainMovesThatBackendsUsersAway() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call("affinity", "alice") != null);
    String alice = call("affinity", "alice");
    for (int i = 0; i < 100; i++) {
      assertThat(call("affinity", "alice")).isEqualTo(alice);
    }
    assertThat(Set.copyOf(backendOfEachUser(30).values())).hasSizeGreaterThanOrEqualTo(2);

    // Churn: 10 backends, 1,000 users; draining the backend that holds alice remaps its users only.
    Map<String, String> before = backendOfEachUser(1000);
    ws.write("affinity.yaml", cluster("affinity", RING.stream()
        .map(n -> endpoint(n, "a", 0, n.equals(alice) ? "DRAINING" : "READY")).toList()));
    await().atMost(Duration.ofSeconds(10)).until(() -> !call("affinity", "alice").equals(alice));
    Map<String, String> after = backendOfEachUser(1000);
    Set<String> moved = before.keySet().stream().filter(u -> !before.get(u).equals(after.get(u)))
        .collect(Collectors.toSet());
    Set<String> onDrained = before.keySet().stream().filter(u -> before.get(u).equals(alice))
        .collect(Collectors.toSet());
    Set<String> movedBetweenOthers = new HashSet<>(moved);
    movedBetweenOthers.removeAll(onDrained);
    // Reported in docs/traffic-policy.md ("Churn"). Every user of the drained backend moves, and it
    // gets none; the ring is rebuilt for 9 hosts (each gets ringSize/9 points instead of /10), so a
    // few users of the others move too: consistent hashing bounds that, it does not make it zero.
    // The new points are about a tenth of the new ring and 8 in 9 take a range from another host:
    // about 80 to 90 of the 1,000 users, with a spread of about 15 (the backends' ports, so the ring,
    // differ every run; 61 to 105 were seen). Twice that still tells consistent hashing from a
    // rehash over 9 hosts, which would move about 800 of the 900 users the others held.
    System.out.printf("ring hash churn: draining 1 of 10 backends moved %d of 1000 keys (%d held by it, %d between"
        + " the other 9)%n", moved.size(), onDrained.size(), movedBetweenOthers.size());
    assertThat(moved).containsAll(onDrained);
    assertThat(after.values()).doesNotContain(alice);
    assertThat(movedBetweenOthers.size()).isLessThanOrEqualTo(180);
  }

  @Test
  void channelIdKeepsEveryCallOfAChannelOnOneBackend() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call("channel", null) != null);
    Set<String> firstOfEachChannel = new HashSet<>();
    for (int c = 0; c < 5; c++) {
      ManagedChannel channel = client.open("channel");
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> call(channel, null) != null);
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < 20; i++) {
        seen.add(call(channel, "user-" + i));
      }
      assertThat(seen).as("channel %d", c).hasSize(1);
      firstOfEachChannel.addAll(seen);
    }
    assertThat(firstOfEachChannel).as("five channels, ten backends").hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void aTerminalHeaderHashStopsBeforeTheChannelId() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> call("terminal", "u") != null && call("not-terminal", "u") != null && call("affinity", "u") != null);
    Map<String, String> headerOnly = backendOfEachUser("affinity", 50);
    assertThat(backendOfEachUser("terminal", 50)).isEqualTo(headerOnly);
    assertThat(backendOfEachUser("not-terminal", 50)).as("the channel id is mixed into the hash")
        .isNotEqualTo(headerOnly);
  }

  @Test
  void failsOverToPriorityOneAndBackWhenEveryPriorityZeroEndpointSharesItsZone() {
    failsOverAndBack("one-zone");
  }

  @Test
  void failsOverToPriorityOneAndBackWhenPriorityZeroSpansTwoZones() {
    failsOverAndBack("two-zones");
  }

  private void failsOverAndBack(String listener) {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> calls(listener, 20).equals(Set.of("p0a", "p0b")));

    // One priority-0 endpoint left: Envoy would spill 30% to priority 1 (factor 140); grpc-xds does not.
    ws.write("failover.yaml", failover("READY", "DRAINING"));
    await().atMost(Duration.ofSeconds(10)).until(() -> calls(listener, 10).equals(Set.of("p0a")));
    assertThat(calls(listener, 30)).containsExactly("p0a");

    ws.write("failover.yaml", failover("DRAINING", "DRAINING"));
    await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> calls(listener, 10).equals(Set.of("p1")));
    assertThat(calls(listener, 30)).containsExactly("p1");

    ws.write("failover.yaml", failover("READY", "READY"));
    await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
        .until(() -> calls(listener, 20).equals(Set.of("p0a", "p0b")));
  }

  /** Of {@code n} calls, how many failed. */
  private static int failures(String listener, int n) {
    int failed = 0;
    for (int i = 0; i < n; i++) {
      try {
        call(listener, null);
      } catch (StatusRuntimeException e) {
        failed++;
      }
    }
    return failed;
  }

  @Test
  void retriesUnavailableOnTheOtherBackendAndWithoutThePolicyAboutHalfFail() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> call("retry", null).equals("ok"));
    assertThat(failures("retry", 100)).isLessThanOrEqualTo(2);
    assertThat(failures("no-retry", 100)).isBetween(30, 70);
  }

  @Test
  void weightedRoundRobinShiftsTrafficTowardTheLessLoadedBackend() {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> calls("orca", 10).size() == 2);
    // Weights come from each answer's ORCA report: idle (0.1) should weigh 9 times busy (0.9).
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      Map<String, Integer> counts = new HashMap<>();
      for (int i = 0; i < 200; i++) {
        counts.merge(call("orca", null), 1, Integer::sum);
      }
      return counts.getOrDefault("idle", 0) >= 150;
    });
  }

  @Test
  void acceptsWhatItIgnoresAndThenBalancesAsIfItWereAbsent() {
    // Cookie, source-IP and query-parameter hashing, a per-try timeout, HTTP status retries, panic
    // threshold, locality weighting, overprovisioning and a retry budget: all ACKed, none applied.
    // Without a hash it understands, grpc-xds hashes every call at random, so calls spread.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> calls("ignored", 30).size() >= 2);
    // Zone-aware routing is Envoy's alone: grpc-xds weighs both zones and uses both.
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> calls("near", 20).equals(Set.of("h1", "h2")));
    var client = server.xds().clients().stream().filter(c -> c.nodeId().equals("grpc-traffic")).findFirst().orElseThrow();
    assertThat(client.types().values()).allSatisfy(t -> assertThat(t.nack()).isNull());
  }
}
