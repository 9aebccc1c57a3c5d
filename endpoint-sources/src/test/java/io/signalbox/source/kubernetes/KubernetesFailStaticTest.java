package io.signalbox.source.kubernetes;

import static io.signalbox.source.kubernetes.KubernetesFixtures.port;
import static io.signalbox.source.kubernetes.KubernetesFixtures.ready;
import static io.signalbox.source.kubernetes.KubernetesFixtures.service;
import static io.signalbox.source.kubernetes.KubernetesFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the source publishes when the API server misbehaves (fabric8's mock server with injected
 * faults): it fails static — the last good endpoints stay, and the source's health says why — and
 * follows the API server again once it answers properly.
 */
class KubernetesFailStaticTest {

  private static final KubernetesSourceSettings.Timing FAST = new KubernetesSourceSettings.Timing(
      Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(100));
  private static final String GREETER = "default/greeter:grpc";
  /** One Service informer and one EndpointSlice informer, in one namespace. */
  private static final int INFORMERS = 2;

  private FaultyApiServer api;
  private KubernetesEndpointSource source;
  private final List<SourceState> states = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startApiServer() {
    api = FaultyApiServer.start();
  }

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
    api.close();
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20));
  }

  private void startSource() {
    source = new KubernetesEndpointSource(new KubernetesSourceSettings(List.of("default"), null, null,
        new KubernetesSourceSettings.Connection.MasterUrl(api.url()), FAST));
    source.start(states::add);
  }

  private SourceState last() {
    return states.get(states.size() - 1);
  }

  private static Set<String> greeter(SourceState state) {
    Set<String> out = new TreeSet<>();
    state.endpoints().getOrDefault(GREETER, List.of()).forEach(e -> out.add(e.key()));
    return out;
  }

  private void putSlice(Endpoint... endpoints) {
    api.client().resource(slice("default", "greeter-a", "greeter", "grpc", 8080, endpoints))
        .createOr(existing -> existing.update());
  }

  private Map<String, List<EndpointSpec>> syncedWithTwoEndpoints() {
    api.client().resource(service("default", "greeter", port("grpc", 80))).create();
    putSlice(ready("10.0.0.1", "a"), ready("10.0.0.2", "b"));
    startSource();
    eventually().until(() -> !states.isEmpty() && greeter(last()).size() == 2
        && last().health() == SourceHealth.FRESH);
    return last().endpoints();
  }

  @Test
  void listsAgainAfter410GoneAndFollowsWhatChangedWhileTheWatchWasDown() {
    syncedWithTwoEndpoints();
    int published = states.size();

    api.expireWatches();
    relisted();
    putSlice(ready("10.0.0.1", "a"), ready("10.0.0.3", "c"));
    relisted(); // only a list can tell the informers: every watch is answered 410
    api.resumeWatches();

    eventually().until(() -> greeter(last()).equals(Set.of("10.0.0.1:8080", "10.0.0.3:8080"))
        && last().health() == SourceHealth.FRESH);
    assertThat(last().problems()).isEmpty();
    // Never an empty or half state on the way: the old endpoints, then the new ones.
    assertThat(states.subList(published, states.size())).allSatisfy(s -> assertThat(greeter(s))
        .isIn(Set.of("10.0.0.1:8080", "10.0.0.2:8080"), Set.of("10.0.0.1:8080", "10.0.0.3:8080")));
  }

  /** Waits until both informers have listed again since now. */
  private void relisted() {
    int before = api.fullLists();
    eventually().until(() -> api.fullLists() >= before + INFORMERS);
  }

  @Test
  void keepsTheLastEndpointsStaleWhenAListComesBackEmpty() {
    Map<String, List<EndpointSpec>> known = syncedWithTwoEndpoints();

    api.listEmpty(true);
    api.expireWatches();
    relisted();
    api.resumeWatches();

    eventually().until(() -> last().health() == SourceHealth.STALE);
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
        .until(() -> last().health() == SourceHealth.STALE);
    assertThat(last().endpoints()).isEqualTo(known);
    assertThat(last().problems()).containsExactly(Violation.error(KubernetesEndpointSource.RULE_EMPTY_LIST,
        "kubernetes", "", "the API server at " + api.url() + "/ listed no Services and no EndpointSlices where "
            + "there were 2 endpoints in 1 cluster; keeping the last known endpoints until it lists some again"));
    assertThat(states).noneSatisfy(s -> assertThat(s.endpoints()).isEmpty());

    // The API server lists its objects again: the source follows it.
    api.listEmpty(false);
    api.expireWatches();
    relisted();
    api.resumeWatches();
    eventually().until(() -> last().health() == SourceHealth.FRESH);
    assertThat(last().endpoints()).isEqualTo(known);
    assertThat(last().problems()).isEmpty();
  }

  @Test
  void appliesADeletionOfEverythingSeenThroughTheWatch() {
    syncedWithTwoEndpoints();

    api.client().discovery().v1().endpointSlices().inNamespace("default").withName("greeter-a").delete();
    api.client().services().inNamespace("default").withName("greeter").delete();

    eventually().until(() -> last().endpoints().isEmpty());
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertThat(last().problems()).isEmpty();
  }
}
