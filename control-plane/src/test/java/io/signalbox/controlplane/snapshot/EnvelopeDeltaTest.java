package io.signalbox.controlplane.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.embedded.PostgresExtension;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Snapshots stored as deltas in PostgreSQL come back exactly as they were sealed. */
class EnvelopeDeltaTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-06-01T12:00:00Z"), ZoneOffset.UTC);

  private final SnapshotBuilder builder = new SnapshotBuilder();
  /** The desired state: cluster name -> endpoints; each cluster gets a CDS and an EDS resource. */
  private final Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
  private final List<Snapshot> sealed = new ArrayList<>();
  private PostgresSnapshotStore store;
  private String url;

  @BeforeEach
  void open() {
    url = postgres.newDatabase();
    store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static EndpointSpec endpoint(String address, int weight) {
    return new EndpointSpec(address, 8080, "zone-a", weight, 0, EndpointState.READY, "file:endpoints.yaml");
  }

  private List<TranslatedResource> translate() {
    List<TranslatedResource> out = new ArrayList<>();
    endpoints.forEach((name, list) -> {
      out.add(new TranslatedResource(XdsType.CLUSTER, name, Cluster.newBuilder().setName(name).build(), Set.of(name)));
      ClusterLoadAssignment.Builder cla = ClusterLoadAssignment.newBuilder().setClusterName(name);
      list.stream().filter(e -> e.state() != EndpointState.EJECTED).forEach(e -> cla.addEndpointsBuilder()
          .addLbEndpointsBuilder().setLoadBalancingWeight(com.google.protobuf.UInt32Value.of(e.weight()))
          .getEndpointBuilder().getAddressBuilder().getSocketAddressBuilder()
          .setAddress(e.address()).setPortValue(e.port()));
      out.add(new TranslatedResource(XdsType.ENDPOINT, name, cla.build(), Set.of()));
    });
    return out;
  }

  /** Seals and appends the current state as the reconciler does. */
  private Snapshot publish(String cause) {
    Snapshot parent = sealed.isEmpty() ? null : sealed.get(sealed.size() - 1);
    SnapshotCandidate candidate = builder.candidate(translate(), endpoints, parent,
        Provenance.newBuilder().setCause(cause).build());
    Snapshot snapshot = store.append(candidate.sealer(CLOCK));
    sealed.add(snapshot);
    return snapshot;
  }

  private void publishChanges() {
    for (String c : List.of("alpha", "beta", "gamma")) {
      endpoints.put(c, List.of(endpoint("10.0.0.1", 1), endpoint("10.0.0.2", 1)));
    }
    // Unchanged clusters, so the checkpoint outweighs the deltas (as a real state does) and the
    // store keeps the chain going.
    for (int i = 0; i < 50; i++) {
      endpoints.put("steady-" + i, List.of(endpoint("10.1.0." + i, 1), endpoint("10.2.0." + i, 1)));
    }
    publish("startup");
    endpoints.put("alpha", List.of(endpoint("10.0.0.1", 5), endpoint("10.0.0.2", 1)));
    publish("weight");
    endpoints.put("delta", List.of(endpoint("10.0.9.1", 1)));
    publish("new cluster");
    endpoints.remove("beta");
    publish("removed cluster");
    // Only the endpoint model changes: an ejected endpoint leaves EDS, its record stays with a new state.
    endpoints.put("gamma", List.of(endpoint("10.0.0.1", 1),
        new EndpointSpec("10.0.0.2", 8080, "zone-a", 1, 0, EndpointState.EJECTED, "file:endpoints.yaml")));
    publish("ejected");
    endpoints.put("gamma", List.of(endpoint("10.0.0.1", 1)));
    publish("endpoint gone");
  }

  @Test
  void everyEpochLoadsBackByteForByteAsSealed() throws SQLException {
    publishChanges();

    for (Snapshot s : sealed) {
      SnapshotEnvelope loaded = store.load(s.epoch()).orElseThrow();
      assertThat(loaded.getDelta()).isFalse();
      assertThat(loaded.toByteArray()).isEqualTo(s.toEnvelope().toByteArray());
      assertSameContent(Snapshot.fromEnvelope(loaded), s);
    }
    assertSameContent(Snapshot.fromEnvelope(store.latest().orElseThrow()), sealed.get(sealed.size() - 1));
    assertThat(deltasStored()).isEqualTo(sealed.size() - 1);
  }

  private int deltasStored() throws SQLException {
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        ResultSet r = c.createStatement().executeQuery("SELECT count(*) FROM epochs WHERE base_epoch <> epoch")) {
      r.next();
      return r.getInt(1);
    }
  }

  @Test
  void aOneEndpointChangeStoresOneResourceAndOneClustersRecords() {
    publishChanges();

    SnapshotEnvelope delta = EnvelopeDelta.of(sealed.get(0), sealed.get(1)).orElseThrow();

    assertThat(delta.getDelta()).isTrue();
    assertThat(delta.getTypesList()).hasSize(XdsType.values().length);
    assertThat(delta.getTypesList()).flatExtracting(io.signalbox.proto.v1.TypeResources::getResourcesList)
        .extracting(r -> r.getName()).containsExactly("alpha");
    assertThat(delta.getEndpointsList()).extracting(r -> r.getCluster() + "/" + r.getAddress() + "/" + r.getWeight())
        .containsExactly("alpha/10.0.0.1/5", "alpha/10.0.0.2/1");
    assertThat(delta.getRemovedEndpointClustersList()).isEmpty();

    SnapshotEnvelope removal = EnvelopeDelta.of(sealed.get(2), sealed.get(3)).orElseThrow();
    assertThat(removal.getTypesList()).flatExtracting(io.signalbox.proto.v1.TypeResources::getRemovedList)
        .containsExactly("beta", "beta");
    assertThat(removal.getRemovedEndpointClustersList()).containsExactly("beta");
    assertThat(removal.getEndpointsList()).isEmpty();
  }

  @Test
  void offersNoDeltaOnAnotherParentOrWithoutOne() {
    publishChanges();

    assertThat(EnvelopeDelta.of(sealed.get(0), sealed.get(2))).isEmpty();
    assertThat(EnvelopeDelta.of(null, sealed.get(0))).isEmpty();
  }

  private static void assertSameContent(Snapshot loaded, Snapshot sealed) {
    assertThat(loaded.epoch()).isEqualTo(sealed.epoch());
    assertThat(loaded.parentEpoch()).isEqualTo(sealed.parentEpoch());
    assertThat(loaded.contentHash()).isEqualTo(sealed.contentHash());
    assertThat(loaded.provenance()).isEqualTo(sealed.provenance());
    assertThat(loaded.endpoints()).isEqualTo(sealed.endpoints());
    for (XdsType type : XdsType.values()) {
      TypeResources a = loaded.resources(type);
      TypeResources b = sealed.resources(type);
      assertThat(a.versionEpoch()).as(type + " version").isEqualTo(b.versionEpoch());
      assertThat(a.byName().keySet()).as(type + " names").containsExactlyElementsOf(b.byName().keySet());
      b.byName().forEach((name, r) -> {
        XdsResource l = a.get(name);
        assertThat(l.version()).isEqualTo(r.version());
        assertThat(l.changedEpoch()).isEqualTo(r.changedEpoch());
        assertThat(l.references()).isEqualTo(r.references());
        assertThat(l.any().toByteArray()).isEqualTo(r.any().toByteArray());
      });
    }
  }
}
