package io.signalbox.source.kubernetes;

import static io.signalbox.source.kubernetes.KubernetesFixtures.endpoint;
import static io.signalbox.source.kubernetes.KubernetesFixtures.port;
import static io.signalbox.source.kubernetes.KubernetesFixtures.ready;
import static io.signalbox.source.kubernetes.KubernetesFixtures.service;
import static io.signalbox.source.kubernetes.KubernetesFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The source against fabric8's mock API server in CRUD mode: real HTTP, real watches. */
class KubernetesEndpointSourceTest {

  private static final KubernetesSourceSettings.Timing FAST = new KubernetesSourceSettings.Timing(
      Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(100));
  private static final String GREETER = "default/greeter:grpc";

  private KubernetesMockServer server;
  private KubernetesClient client;
  private KubernetesEndpointSource source;
  private final List<SourceState> states = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startServer() {
    server = crudServer(0);
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
    client.close();
    server.destroy();
  }

  private static KubernetesMockServer crudServer(int port) {
    KubernetesMockServer s = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(), false);
    s.init(InetAddress.getLoopbackAddress(), port);
    return s;
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20));
  }

  private void startSource(String labelSelector) {
    source = new KubernetesEndpointSource(new KubernetesSourceSettings(List.of("default"), labelSelector, null,
        new KubernetesSourceSettings.Connection.MasterUrl("http://127.0.0.1:" + server.getPort()), FAST));
    source.start(states::add);
  }

  private SourceState last() {
    return states.get(states.size() - 1);
  }

  private List<EndpointSpec> greeter() {
    return states.isEmpty() ? List.of() : last().endpoints().getOrDefault(GREETER, List.of());
  }

  private Map<String, EndpointState> greeterStates() {
    Map<String, EndpointState> out = new java.util.TreeMap<>();
    greeter().forEach(e -> out.put(e.key(), e.state()));
    return out;
  }

  private EndpointSlice put(EndpointSlice slice) {
    return client.resource(slice).createOr(existing -> existing.update());
  }

  private void createGreeter(Endpoint... endpoints) {
    client.resource(service("default", "greeter", port("grpc", 80))).create();
    put(slice("default", "greeter-a", "greeter", "grpc", 8080, endpoints));
  }

  @Test
  void publishesReadyEndpointsFreshOnceSynced() {
    createGreeter(ready("10.0.0.1", "a"));
    String resourceVersion = client.discovery().v1().endpointSlices().inNamespace("default").withName("greeter-a")
        .get().getMetadata().getResourceVersion();

    startSource(null);

    eventually().until(() -> !states.isEmpty());
    SourceState first = states.get(0);
    assertThat(first.sourceId()).isEqualTo("kubernetes");
    assertThat(first.health()).isEqualTo(SourceHealth.FRESH);
    assertThat(first.generation()).isEqualTo(1);
    assertThat(first.problems()).isEmpty();
    assertThat(first.endpoints()).isEqualTo(Map.of(GREETER, List.of(new EndpointSpec("10.0.0.1", 8080, "a", 1, 0,
        EndpointState.READY, "kubernetes:default/greeter-a@" + resourceVersion))));
  }

  @Test
  void followsScalingAndEndpointConditions() {
    createGreeter(ready("10.0.0.1", "a"));
    startSource(null);
    eventually().until(() -> greeter().size() == 1);

    put(slice("default", "greeter-a", "greeter", "grpc", 8080,
        ready("10.0.0.1", "a"), ready("10.0.0.2", "b"), ready("10.0.0.3", "b")));
    eventually().until(() -> greeterStates().equals(Map.of(
        "10.0.0.1:8080", EndpointState.READY, "10.0.0.2:8080", EndpointState.READY,
        "10.0.0.3:8080", EndpointState.READY)));

    put(slice("default", "greeter-a", "greeter", "grpc", 8080,
        ready("10.0.0.1", "a"), endpoint("10.0.0.2", "b", false, true, true), endpoint("10.0.0.3", "b", false, false,
            false)));
    eventually().until(() -> greeterStates().equals(Map.of(
        "10.0.0.1:8080", EndpointState.READY, "10.0.0.2:8080", EndpointState.DRAINING,
        "10.0.0.3:8080", EndpointState.WARMING)));

    put(slice("default", "greeter-a", "greeter", "grpc", 8080, ready("10.0.0.1", "a")));
    eventually().until(() -> greeterStates().equals(Map.of("10.0.0.1:8080", EndpointState.READY)));

    List<Long> generations = states.stream().map(SourceState::generation).toList();
    assertThat(generations).isSorted().doesNotHaveDuplicates();
    assertThat(states).allSatisfy(s -> assertThat(s.health()).isEqualTo(SourceHealth.FRESH));
  }

  @Test
  void keepsOneCopyOfAnEndpointInTwoSlicesAndDropsADeletedService() {
    createGreeter(endpoint("10.0.0.1", "a", false, true, true));
    put(slice("default", "greeter-b", "greeter", "grpc", 8080, ready("10.0.0.1", "a")));
    client.resource(service("default", "other", port("http", 80))).create();
    put(slice("default", "other-a", "other", "http", 8081, ready("10.0.0.9", "a")));
    startSource(null);

    eventually().until(() -> !states.isEmpty() && last().endpoints().size() == 2);
    assertThat(greeter()).singleElement().satisfies(e -> {
      assertThat(e.state()).isEqualTo(EndpointState.READY);
      assertThat(e.origin()).startsWith("kubernetes:default/greeter-b@");
    });

    client.services().inNamespace("default").withName("greeter").delete();
    eventually().until(() -> last().endpoints().keySet().equals(java.util.Set.of("default/other:http")));
  }

  @Test
  void watchesOnlyServicesMatchingTheLabelSelector() {
    createGreeter(ready("10.0.0.1", "a"));
    client.resource(service("default", "other", port("http", 80))).create();
    put(slice("default", "other-a", "other", "http", 8081, ready("10.0.0.9", "a")));

    startSource("app=other");

    eventually().until(() -> !states.isEmpty());
    assertThat(last().endpoints()).containsOnlyKeys("default/other:http");
  }

  @Test
  void keepsTheLastEndpointsStaleWhileTheApiServerIsGoneAndRecovers() {
    createGreeter(ready("10.0.0.1", "a"), ready("10.0.0.2", "b"));
    startSource(null);
    eventually().until(() -> greeter().size() == 2);
    Map<String, List<EndpointSpec>> known = last().endpoints();
    int port = server.getPort();

    client.close();
    server.destroy();

    eventually().until(() -> last().health() == SourceHealth.STALE);
    // One state for the outage, however many probes and reconnects fail meanwhile.
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
        .until(() -> states.stream().filter(s -> s.health() == SourceHealth.STALE).count() == 1);
    SourceState stale = last();
    assertThat(stale.endpoints()).isEqualTo(known);
    assertThat(stale.problems()).containsExactly(Violation.error(KubernetesEndpointSource.RULE_UNREACHABLE,
        "kubernetes", "", "cannot reach the Kubernetes API server at http://127.0.0.1:" + port
            + "/; keeping the last known endpoints"));

    // The API server comes back on the same address: the watches reconnect and the state follows it.
    server = crudServer(port);
    client = server.createClient();
    createGreeter(ready("10.0.0.1", "a"), ready("10.0.0.2", "b"));
    eventually().until(() -> last().health() == SourceHealth.FRESH);
    put(slice("default", "greeter-a", "greeter", "grpc", 8080, ready("10.0.0.3", "c")));
    eventually().until(() -> greeterStates().equals(Map.of("10.0.0.3:8080", EndpointState.READY)));
    assertThat(last().problems()).isEmpty();
  }

  @Test
  void isFailedWithNoEndpointsWhenTheApiServerWasNeverReachable() {
    int port = server.getPort();
    client.close();
    server.destroy();
    server = crudServer(0); // for stop(); the source points at the dead port
    client = server.createClient();
    source = new KubernetesEndpointSource(new KubernetesSourceSettings(List.of("default"), null, null,
        new KubernetesSourceSettings.Connection.MasterUrl("http://127.0.0.1:" + port), FAST));
    source.start(states::add);

    eventually().until(() -> !states.isEmpty());
    assertThat(last().health()).isEqualTo(SourceHealth.FAILED);
    assertThat(last().endpoints()).isEmpty();
    assertThat(last().problems()).extracting(Violation::rule).containsExactly(KubernetesEndpointSource.RULE_UNREACHABLE);
  }

  @Test
  void anErrorOnTheWorkerIsFailedWithItsReasonAndTheNextProbeRecovers() {
    client.resource(service("default", "greeter", port("grpc", 50051))).create();
    client.resource(slice("default", "greeter-1", "greeter", "grpc", 50051, ready("10.0.0.1", "a"))).create();
    java.util.concurrent.atomic.AtomicBoolean failNext = new java.util.concurrent.atomic.AtomicBoolean(true);
    source = new KubernetesEndpointSource(new KubernetesSourceSettings(List.of("default"), null, null,
        new KubernetesSourceSettings.Connection.MasterUrl("http://127.0.0.1:" + server.getPort()), FAST));
    // The first state the worker publishes throws an Error, which nothing on the way catches.
    source.start(state -> {
      if (failNext.compareAndSet(true, false)) {
        throw new AssertionError("injected failure");
      }
      states.add(state);
    });

    eventually().until(() -> !states.isEmpty() && states.get(0).health() == SourceHealth.FAILED);
    assertThat(states.get(0).problems()).extracting(Violation::toString).containsExactly(
        "kubernetes: the source's thread failed (java.lang.AssertionError: injected failure); restarting in 200 ms; "
            + "keeping the last known endpoints [source.failed]");
    // The probe's schedule survived: the next probe publishes the synced state.
    eventually().until(() -> last().health() == SourceHealth.FRESH && last().endpoints().containsKey(GREETER));
  }

  /** A StatefulSet pod's entry: its Pod reference and hostname. */
  private static Endpoint pod(String address, String name) {
    Endpoint e = ready(address, "a");
    e.setTargetRef(new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder().withKind("Pod").withNamespace("default")
        .withName(name).build());
    e.setHostname(name);
    return e;
  }

  private void putDualStack(String v4, String v6) {
    put(slice("default", "greeter-v4", "greeter", "grpc", 8080, pod(v4, "web-0")));
    EndpointSlice six = slice("default", "greeter-v6", "greeter", "grpc", 8080, pod(v6, "web-0"));
    six.setAddressType("IPv6");
    put(six);
  }

  @Test
  void mergesADualStackPodOfTwoSlicesIntoOneEndpointThatKeepsItsKeyAcrossNewIps() {
    client.resource(service("default", "greeter", port("grpc", 80))).create();
    putDualStack("10.0.0.1", "fd00::1");
    startSource(null);

    eventually().until(() -> greeter().size() == 1 && greeter().get(0).additionalAddresses().equals(List.of("fd00::1")));
    assertThat(greeter().get(0)).satisfies(e -> {
      assertThat(e.address()).isEqualTo("10.0.0.1");
      assertThat(e.targetRef()).isEqualTo("Pod/default/web-0");
      assertThat(e.hostname()).isEqualTo("web-0");
    });

    // The pod restarts with new addresses in both families: still one endpoint, same Pod, same ring key.
    putDualStack("10.0.0.7", "fd00::7");
    eventually().until(() -> greeter().size() == 1 && greeter().get(0).address().equals("10.0.0.7")
        && greeter().get(0).additionalAddresses().equals(List.of("fd00::7")));
    assertThat(greeter().get(0).targetRef()).isEqualTo("Pod/default/web-0");
  }

  /** {@code endpoint} with the EndpointSlice controller's hints: the zones it should serve. */
  private static Endpoint hinted(Endpoint e, String... zones) {
    e.setHints(new io.fabric8.kubernetes.api.model.discovery.v1.EndpointHintsBuilder()
        .withForZones(java.util.Arrays.stream(zones)
            .map(z -> new io.fabric8.kubernetes.api.model.discovery.v1.ForZone(z)).toList())
        .build());
    return e;
  }

  @Test
  void readsEachEndpointsZoneAndHintsThroughBothFamiliesAndFollowsTheControllerMovingAHint() {
    client.resource(service("default", "greeter", port("grpc", 80))).create();
    put(slice("default", "greeter-v4", "greeter", "grpc", 8080,
        hinted(ready("10.0.0.1", "a"), "a"), hinted(ready("10.0.0.2", "b"), "b", "c")));
    EndpointSlice six = slice("default", "greeter-v6", "greeter", "grpc", 8080,
        hinted(ready("fd00::1", "a"), "a"), hinted(ready("fd00::2", "b"), "b", "c"));
    six.setAddressType("IPv6");
    put(six);
    startSource(null);

    eventually().until(() -> greeter().size() == 4);
    Map<String, List<String>> hints = new java.util.TreeMap<>();
    Map<String, String> zones = new java.util.TreeMap<>();
    greeter().forEach(e -> {
      hints.put(e.key(), e.zoneHints());
      zones.put(e.key(), e.zone());
    });
    assertThat(hints).isEqualTo(Map.of("10.0.0.1:8080", List.of("a"), "10.0.0.2:8080", List.of("b", "c"),
        "[fd00::1]:8080", List.of("a"), "[fd00::2]:8080", List.of("b", "c")));
    assertThat(zones).containsEntry("10.0.0.2:8080", "b").containsEntry("[fd00::2]:8080", "b");

    // The controller rebalances: zone c is now served from zone a.
    put(slice("default", "greeter-v4", "greeter", "grpc", 8080,
        hinted(ready("10.0.0.1", "a"), "a", "c"), hinted(ready("10.0.0.2", "b"), "b")));
    eventually().until(() -> greeter().stream().anyMatch(
        e -> e.key().equals("10.0.0.1:8080") && e.zoneHints().equals(List.of("a", "c"))));
    assertThat(greeter().stream().filter(e -> e.key().equals("10.0.0.2:8080")).findFirst().orElseThrow().zoneHints())
        .containsExactly("b");
  }
}
