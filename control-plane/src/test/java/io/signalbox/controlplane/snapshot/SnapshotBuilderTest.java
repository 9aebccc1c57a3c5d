package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnapshotBuilderTest {

  private final SnapshotBuilder builder = new SnapshotBuilder();
  private static final Provenance CAUSE = Provenance.newBuilder().setCause("test").build();

  private static TranslatedResource cluster(String name, int timeoutSeconds) {
    return new TranslatedResource(XdsType.CLUSTER, name, Cluster.newBuilder().setName(name)
        .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(timeoutSeconds)).build(), Set.of(name));
  }

  private static TranslatedResource cla(String name, int endpoints) {
    ClusterLoadAssignment.Builder b = ClusterLoadAssignment.newBuilder().setClusterName(name);
    for (int i = 0; i < endpoints; i++) {
      b.addEndpointsBuilder().addLbEndpointsBuilder().getEndpointBuilder().getAddressBuilder()
          .getSocketAddressBuilder().setAddress("10.0.0." + (i + 1)).setPortValue(8080);
    }
    return new TranslatedResource(XdsType.ENDPOINT, name, b.build(), Set.of());
  }

  private Snapshot seal(List<TranslatedResource> resources, Snapshot parent, long epoch) {
    return builder.candidate(resources, Map.of(), parent, CAUSE).seal(epoch, Instant.EPOCH);
  }

  @Test
  void versionsEachResourceBySha256OfItsDeterministicSerialization() throws Exception {
    TranslatedResource a = cluster("a", 1);
    Snapshot s = seal(List.of(a), null, 1);

    byte[] bytes = a.message().toByteArray();
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    assertThat(s.resources(XdsType.CLUSTER).get("a").version()).isEqualTo(expected);
    assertThat(s.resources(XdsType.CLUSTER).get("a").any().getValue().toByteArray()).isEqualTo(bytes);
    assertThat(s.resources(XdsType.CLUSTER).get("a").changedEpoch()).isEqualTo(1);
  }

  @Test
  void aTypeVersionMovesOnlyWhenOneOfItsResourcesChanges() {
    Snapshot one = seal(List.of(cluster("a", 1), cla("a", 1)), null, 1);
    Snapshot two = seal(List.of(cluster("a", 1), cla("a", 2)), one, 2);

    assertThat(two.resources(XdsType.CLUSTER).version()).isEqualTo("1");
    assertThat(two.resources(XdsType.ENDPOINT).version()).isEqualTo("2");
    assertThat(two.resources(XdsType.LISTENER).version()).isEqualTo("1");

    Snapshot three = seal(List.of(cla("a", 2)), two, 3);
    assertThat(three.resources(XdsType.CLUSTER).version()).as("a removal changes the type").isEqualTo("3");
    assertThat(three.resources(XdsType.ENDPOINT).version()).isEqualTo("2");
    assertThat(three.resources(XdsType.ENDPOINT).get("a").changedEpoch()).isEqualTo(2);
  }

  @Test
  void identicalContentIsRecognisedAndCreatesNoEpoch() {
    Snapshot one = seal(List.of(cluster("a", 1), cla("a", 1)), null, 1);

    SnapshotCandidate same = builder.candidate(List.of(cluster("a", 1), cla("a", 1)), Map.of(), one, CAUSE);
    SnapshotCandidate different = builder.candidate(List.of(cluster("a", 2), cla("a", 1)), Map.of(), one, CAUSE);

    assertThat(same.sameContentAs(one)).isTrue();
    assertThat(different.sameContentAs(one)).isFalse();
    assertThat(different.changed(XdsType.CLUSTER)).containsExactly("a");
    assertThat(different.changed(XdsType.ENDPOINT)).isEmpty();
  }

  @Test
  void anEndpointStateChangeInvisibleToXdsIsStillNewContent() {
    EndpointSpec warming = new EndpointSpec("10.0.0.1", 80, "a", 1, 0, EndpointState.WARMING, "file:x");
    Snapshot one = builder.candidate(List.of(cla("a", 0)), Map.of("a", List.of(warming)), null, CAUSE)
        .seal(1, Instant.EPOCH);

    SnapshotCandidate ejected = builder.candidate(List.of(cla("a", 0)),
        Map.of("a", List.of(warming.withState(EndpointState.EJECTED))), one, CAUSE);

    assertThat(ejected.sameContentAs(one)).isFalse();
    assertThat(ejected.changed(XdsType.ENDPOINT)).isEmpty();
  }

  @Test
  void serializesAResourceOnceAndReusesItsBytesWhileUnchanged() {
    TranslatedResource a = cluster("a", 1);
    Snapshot one = seal(List.of(a, cla("a", 1)), null, 1);
    assertThat(builder.serializations()).isEqualTo(2);

    Snapshot two = seal(List.of(a, cla("a", 2)), one, 2);
    assertThat(builder.serializations()).as("the same instance is not serialized again").isEqualTo(3);
    assertThat(two.resources(XdsType.CLUSTER).get("a")).isSameAs(one.resources(XdsType.CLUSTER).get("a"));

    Snapshot three = seal(List.of(cluster("a", 1), cla("a", 3)), two, 3);
    assertThat(three.resources(XdsType.CLUSTER).get("a").any())
        .as("an equal fresh message keeps the bytes clients already have")
        .isSameAs(one.resources(XdsType.CLUSTER).get("a").any());
  }

  @Test
  void roundTripsThroughTheStoredEnvelope() {
    EndpointSpec e = new EndpointSpec("10.0.0.1", 80, "a", 3, 0, EndpointState.DRAINING, "file:x");
    Snapshot one = builder.candidate(List.of(cluster("a", 1), cla("a", 1)), Map.of("a", List.of(e)), null, CAUSE)
        .seal(7, Instant.parse("2026-11-30T10:00:00Z"));

    Snapshot restored = Snapshot.fromEnvelope(one.toEnvelope());

    assertThat(restored.toEnvelope()).isEqualTo(one.toEnvelope());
    assertThat(restored.endpoints()).isEqualTo(one.endpoints());
    assertThat(restored.resources(XdsType.CLUSTER).get("a").version())
        .isEqualTo(one.resources(XdsType.CLUSTER).get("a").version());
  }

  @Test
  void refusesToSealAnEpochNotNewerThanItsParent() {
    Snapshot one = seal(List.of(cluster("a", 1)), null, 5);
    SnapshotCandidate next = builder.candidate(List.of(cluster("a", 2)), Map.of(), one, CAUSE);

    assertThatThrownBy(() -> next.seal(5, Instant.EPOCH))
        .hasMessage("epoch 5 would not be newer than its parent 5");
  }
}
