package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A candidate built on a parent does work for what changed only, and shares the rest. */
class IncrementalBuildTest {

  private static final Provenance CAUSE = Provenance.newBuilder().setCause("test").build();
  private final SnapshotBuilder builder = new SnapshotBuilder();

  private static TranslatedResource cluster(String name, int timeoutSeconds) {
    return new TranslatedResource(XdsType.CLUSTER, name, Cluster.newBuilder().setName(name)
        .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(timeoutSeconds)).build(), Set.of(name));
  }

  private static TranslatedResource cla(String name, int port) {
    ClusterLoadAssignment.Builder b = ClusterLoadAssignment.newBuilder().setClusterName(name);
    b.addEndpointsBuilder().addLbEndpointsBuilder().getEndpointBuilder().getAddressBuilder()
        .getSocketAddressBuilder().setAddress("10.0.0.1").setPortValue(port);
    return new TranslatedResource(XdsType.ENDPOINT, name, b.build(), Set.of());
  }

  private static EndpointSpec endpoint(int weight) {
    return new EndpointSpec("10.0.0.1", 80, "a", weight, 0, EndpointState.READY, "file:x");
  }

  /** 50 clusters with an assignment each, in push order. */
  private static List<TranslatedResource> resources(Map<String, Integer> ports) {
    List<TranslatedResource> out = new ArrayList<>();
    ports.keySet().forEach(n -> out.add(cluster(n, 1)));
    ports.forEach((n, p) -> out.add(cla(n, p)));
    return out;
  }

  @Test
  void anUnchangedResourceIsTheParentsInstanceAndOnlyChangedNamesAreReported() {
    Map<String, Integer> ports = new TreeMap<>();
    for (int i = 0; i < 50; i++) {
      ports.put(String.format("c%02d", i), 80);
    }
    List<TranslatedResource> first = resources(ports);
    Snapshot one = builder.candidate(first, Map.of(), null, CAUSE).seal(1, Instant.EPOCH);
    List<TranslatedResource> second = new ArrayList<>(first);
    second.set(50 + 7, cla("c07", 81));

    SnapshotCandidate candidate = builder.candidate(second, Map.of(), one, CAUSE);
    Snapshot two = candidate.seal(2, Instant.EPOCH);

    assertThat(candidate.changed(XdsType.ENDPOINT)).containsExactly("c07");
    assertThat(candidate.changed(XdsType.CLUSTER)).isEmpty();
    assertThat(candidate.removed(XdsType.ENDPOINT)).isEmpty();
    assertThat(two.resources(XdsType.ENDPOINT).get("c08")).isSameAs(one.resources(XdsType.ENDPOINT).get("c08"));
    assertThat(two.resources(XdsType.CLUSTER).byName()).isSameAs(one.resources(XdsType.CLUSTER).byName());
    assertThat(two.resources(XdsType.ENDPOINT).get("c07").changedEpoch()).isEqualTo(2);
    assertThat(two.resources(XdsType.ENDPOINT).changedSinceParent()).containsExactly("c07");
    assertThat(two.resources(XdsType.ENDPOINT).byName().keySet()).containsExactlyElementsOf(ports.keySet());
    assertThat(builder.serializations()).as("100 at first, then one").isEqualTo(101);
  }

  @Test
  void aStoredEpochRestoredOnTheServedParentSharesItsResourcesAndKnowsWhatChanged() {
    Map<String, Integer> ports = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      ports.put(String.format("c%02d", i), 80);
    }
    List<TranslatedResource> first = resources(ports);
    Snapshot one = builder.candidate(first, Map.of(), null, CAUSE).seal(1, Instant.EPOCH);
    List<TranslatedResource> second = new ArrayList<>(first.subList(0, 39));
    second.set(20 + 7, cla("c07", 81));
    second.add(cluster("new", 1));
    Snapshot two = builder.candidate(second, Map.of(), one, CAUSE).seal(2, Instant.EPOCH);
    // What a follower has: the parent as it was restored from the store, then the child.
    Snapshot servedOne = Snapshot.fromEnvelope(one.toEnvelope());

    Snapshot restored = Snapshot.fromEnvelope(two.toEnvelope(), servedOne);

    for (XdsType type : XdsType.values()) {
      assertThat(restored.resources(type).changedSinceParent()).as(type.name())
          .isEqualTo(two.resources(type).changedSinceParent());
      assertThat(restored.resources(type).byName()).isEqualTo(Snapshot.fromEnvelope(two.toEnvelope()).resources(type)
          .byName());
    }
    assertThat(restored.resources(XdsType.ENDPOINT).changedSinceParent()).containsExactlyInAnyOrder("c07", "c19");
    assertThat(restored.resources(XdsType.ENDPOINT).get("c08")).isSameAs(servedOne.resources(XdsType.ENDPOINT)
        .get("c08"));
    assertThat(restored.contentHash()).isEqualTo(two.contentHash());
    // Not built on what is served (a skipped epoch): nothing claimed about what changed.
    assertThat(Snapshot.fromEnvelope(two.toEnvelope(), null).resources(XdsType.ENDPOINT).changedSinceParent())
        .isNull();
  }

  @Test
  void aDeltaAppliedToTheServedParentIsWhatItsFullEnvelopeRestoresAndSharesTheRest() {
    Map<String, Integer> ports = new TreeMap<>();
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      ports.put(String.format("c%02d", i), 80);
      endpoints.put(String.format("c%02d", i), List.of(endpoint(1)));
    }
    List<TranslatedResource> first = resources(ports);
    Snapshot one = builder.candidate(first, endpoints, null, CAUSE).seal(1, Instant.EPOCH);
    // c07's assignment changes, c19 goes, a cluster "new" comes; endpoint lists change, go and come.
    List<TranslatedResource> second = new ArrayList<>(first.subList(0, 39));
    second.set(20 + 7, cla("c07", 81));
    second.add(cluster("new", 1));
    Map<String, List<EndpointSpec>> after = new TreeMap<>(endpoints);
    after.put("c07", List.of(endpoint(5)));
    after.remove("c19");
    after.put("new", List.of(endpoint(1), endpoint(2)));
    Snapshot two = builder.candidate(second, after, one, CAUSE).seal(2, Instant.parse("2026-12-02T05:00:00Z"));
    Snapshot servedOne = Snapshot.fromEnvelope(one.toEnvelope());

    Snapshot applied = Snapshot.fromDelta(EnvelopeDelta.of(one, two).orElseThrow(), servedOne);

    assertThat(applied.toEnvelope()).isEqualTo(two.toEnvelope());
    assertThat(applied.toEnvelope()).isEqualTo(Snapshot.fromEnvelope(two.toEnvelope(), servedOne).toEnvelope());
    for (XdsType type : XdsType.values()) {
      assertThat(applied.resources(type).changedSinceParent()).as(type.name())
          .isEqualTo(two.resources(type).changedSinceParent());
    }
    assertThat(applied.resources(XdsType.ENDPOINT).get("c08")).isSameAs(servedOne.resources(XdsType.ENDPOINT)
        .get("c08"));
    List<String> visited = new ArrayList<>();
    applied.forEachEndpointChange(servedOne, (cluster, before, list) -> visited.add(cluster));
    assertThat(visited).as("only the lists the delta carries are new").containsExactly("c07", "c19", "new");
    assertThat(applied.endpoints()).isEqualTo(two.endpoints());
    assertThat(applied.createdAt()).isEqualTo(two.createdAt());

    Snapshot three = builder.candidate(second, after, two, CAUSE).seal(3, Instant.EPOCH);
    assertThatThrownBy(() -> Snapshot.fromDelta(EnvelopeDelta.of(two, three).orElseThrow(), servedOne))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a delta on epoch 2, not a delta on epoch 1");
    assertThatThrownBy(() -> Snapshot.fromDelta(two.toEnvelope(), servedOne))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a delta");
  }

  @Test
  void aRemovedResourceDisappearsAndIsReported() {
    Snapshot one = builder.candidate(List.of(cluster("a", 1), cluster("b", 1), cluster("c", 1)), Map.of(), null, CAUSE)
        .seal(1, Instant.EPOCH);

    SnapshotCandidate candidate = builder.candidate(List.of(cluster("a", 1), cluster("c", 1)), Map.of(), one, CAUSE);
    Snapshot two = candidate.seal(2, Instant.EPOCH);

    assertThat(candidate.removed(XdsType.CLUSTER)).containsExactly("b");
    assertThat(two.resources(XdsType.CLUSTER).byName().keySet()).containsExactly("a", "c");
    assertThat(two.resources(XdsType.CLUSTER).get("b")).isNull();
    assertThat(two.resources(XdsType.CLUSTER).changedSinceParent()).containsExactly("b");
    assertThat(two.resources(XdsType.CLUSTER).versionEpoch()).isEqualTo(2);
    assertThat(one.resources(XdsType.CLUSTER).get("b")).as("the parent is untouched").isNotNull();
  }

  @Test
  void theContentHashIsTheSameForTheSameContentWhateverTheHistory() {
    Map<String, List<EndpointSpec>> endpoints = Map.of("a", List.of(endpoint(1)), "b", List.of(endpoint(2)));
    String direct = builder.candidate(List.of(cluster("a", 1), cluster("b", 1)), endpoints, null, CAUSE).contentHash();

    Snapshot detour = builder.candidate(List.of(cluster("b", 2), cluster("z", 1)), Map.of("z", List.of(endpoint(1))),
        null, CAUSE).seal(1, Instant.EPOCH);
    Snapshot back = builder.candidate(List.of(cluster("a", 1), cluster("b", 1)),
        Map.of("a", List.of(endpoint(1)), "b", new ArrayList<>(List.of(endpoint(2)))), detour, CAUSE)
        .seal(2, Instant.EPOCH);

    assertThat(back.contentHash()).isEqualTo(direct);
    Snapshot restored = Snapshot.fromEnvelope(back.toEnvelope());
    assertThat(builder.candidate(List.of(cluster("a", 1), cluster("b", 1)), endpoints, restored, CAUSE)
        .sameContentAs(restored)).isTrue();
    assertThat(builder.candidate(List.of(cluster("a", 1), cluster("b", 1)),
        Map.of("a", List.of(endpoint(1)), "b", List.of(endpoint(3))), back, CAUSE).sameContentAs(back)).isFalse();
  }

  @Test
  void anEndpointsCapacityAloneIsNewContent() {
    Snapshot none = builder.candidate(List.of(), Map.of("a", List.of(endpoint(1))), null, CAUSE).seal(1, Instant.EPOCH);
    SnapshotCandidate declared = builder.candidate(List.of(), Map.of("a", List.of(withCapacity(250))), none, CAUSE);
    Snapshot two = declared.seal(2, Instant.EPOCH);

    assertThat(declared.sameContentAs(none)).isFalse();
    assertThat(builder.candidate(List.of(), Map.of("a", List.of(withCapacity(400))), two, CAUSE).sameContentAs(two))
        .isFalse();
    assertThat(builder.candidate(List.of(), Map.of("a", List.of(withCapacity(250))), two, CAUSE).sameContentAs(two))
        .isTrue();
    assertThat(Snapshot.fromEnvelope(two.toEnvelope()).endpoints().get("a")).containsExactly(withCapacity(250));
  }

  private static EndpointSpec withCapacity(int rps) {
    return new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.READY, "file:x", rps);
  }

  @Test
  void anEqualEndpointListIsReplacedByTheParentsInstance() {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>(Map.of("a", List.of(endpoint(1)),
        "b", List.of(endpoint(2))));
    Snapshot one = builder.candidate(List.of(), endpoints, null, CAUSE).seal(1, Instant.EPOCH);

    Map<String, List<EndpointSpec>> next = new TreeMap<>(Map.of("a", new ArrayList<>(List.of(endpoint(1))),
        "b", List.of(endpoint(3))));
    Snapshot two = builder.candidate(List.of(), next, one, CAUSE).seal(2, Instant.EPOCH);

    assertThat(two.endpoints().get("a")).isSameAs(one.endpoints().get("a"));
    assertThat(two.endpoints().get("b")).containsExactly(endpoint(3));
    assertThatThrownBy(() -> two.endpoints().get("b").add(endpoint(4)))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void resourcesOutOfNameOrderGiveTheSameSnapshot() {
    Snapshot one = builder.candidate(List.of(cluster("a", 1), cluster("b", 1), cluster("c", 1)), Map.of(), null, CAUSE)
        .seal(1, Instant.EPOCH);
    Map<String, List<EndpointSpec>> unordered = new LinkedHashMap<>();
    unordered.put("z", List.of(endpoint(1)));
    unordered.put("a", List.of(endpoint(1)));

    SnapshotCandidate candidate = builder.candidate(List.of(cluster("d", 1), cluster("c", 2), cluster("a", 1)),
        unordered, one, CAUSE);
    Snapshot two = candidate.seal(2, Instant.EPOCH);

    assertThat(candidate.changed(XdsType.CLUSTER)).containsExactly("c", "d");
    assertThat(candidate.removed(XdsType.CLUSTER)).containsExactly("b");
    assertThat(two.resources(XdsType.CLUSTER).byName().keySet()).containsExactly("a", "c", "d");
    assertThat(two.endpoints().keySet()).containsExactly("a", "z");
    assertThat(candidate.contentHash()).isEqualTo(builder.candidate(
        List.of(cluster("a", 1), cluster("c", 2), cluster("d", 1)), new TreeMap<>(unordered), null, CAUSE)
        .contentHash());
  }

  @Test
  void refusesTwoResourcesOfOneTypeWithOneName() {
    assertThatThrownBy(() -> builder.candidate(List.of(cluster("a", 1), cluster("a", 2)), Map.of(), null, CAUSE))
        .hasMessage("translation produced two CLUSTER named 'a'");
    assertThatThrownBy(() -> builder.candidate(List.of(cluster("b", 1), cluster("a", 2), cluster("b", 1)), Map.of(),
        null, CAUSE)).hasMessage("translation produced two CLUSTER named 'b'");
  }

  @Test
  void sealingTwiceGivesEqualSnapshotsAndLeavesTheCandidateUnchanged() {
    Snapshot one = builder.candidate(List.of(cluster("a", 1)), Map.of(), null, CAUSE).seal(1, Instant.EPOCH);
    SnapshotCandidate candidate = builder.candidate(List.of(cluster("a", 2)), Map.of(), one, CAUSE);

    Snapshot first = candidate.seal(2, Instant.EPOCH);
    Snapshot retried = candidate.seal(3, Instant.EPOCH);

    assertThat(first.resources(XdsType.CLUSTER).get("a").changedEpoch()).isEqualTo(2);
    assertThat(retried.resources(XdsType.CLUSTER).get("a").changedEpoch()).isEqualTo(3);
    assertThat(candidate.changed(XdsType.CLUSTER)).containsExactly("a");
  }
}
