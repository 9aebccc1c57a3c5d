package io.signalbox.controlplane.fleet;

import static io.signalbox.controlplane.fleet.Clusters.CDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.xds.AdsServer;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.source.FakeClock;
import io.signalbox.store.ClientRecord;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.NackEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientStatusRecorderTest {

  private static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
  private static final String BAD_TIMEOUT = "cluster 'a': connect_timeout: must be at least 1s";

  private final FakeClock clock = new FakeClock(T0);
  private final Clusters clusters = new Clusters();
  private final RecordingStore store = new RecordingStore(new InMemorySnapshotStore(clock));
  private AdsServer xds;
  private ClientStatusRecorder recorder;

  @BeforeEach
  void start() {
    xds = AdsServer.start("127.0.0.1", 0, Clock.systemUTC(), new SimpleMeterRegistry());
    recorder = new ClientStatusRecorder(xds, store, clock,
        new ClientStatusRecorder.Settings("replica-a", Duration.ofMillis(50), Duration.ofMinutes(1)));
  }

  @AfterEach
  void stop() {
    xds.close();
    recorder.close();
  }

  @Test
  void writesOnlyChangedRowsOneBatchPerTickAndEachNackOnce() throws Exception {
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS); AdsClient n2 = new AdsClient(xds.port(), "n2", CDS)) {
      n1.ack(n1.next());
      n2.ack(n2.next());
      await().until(() -> ackedEpochs().equals(List.of(1L, 1L)));

      recorder.tick();

      assertThat(store.batches).hasSize(1);
      assertThat(store.batches.get(0)).extracting(r -> r.key().nodeId(), r -> r.position().ackedEpoch())
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("n1", 1L),
              org.assertj.core.groups.Tuple.tuple("n2", 1L));

      xds.publish(clusters.next("a", 2));
      DiscoveryResponse bad = n1.next();
      n1.nack(bad, "1", BAD_TIMEOUT);
      n2.ack(n2.next());
      await().until(() -> ackedEpochs().equals(List.of(1L, 2L)) && xds.clients().get(0).types().get(CDS).nack() != null);

      recorder.tick();
      recorder.tick();

      // n1's NACK is written; n2's ACK only moved its delivery, and no other replica reads the rows.
      assertThat(store.batches).hasSize(2);
      assertThat(store.batches.get(1)).singleElement().extracting(r -> r.key().nodeId()).isEqualTo("n1");
      ClientStatus n1Status = xds.clients().get(0);
      Instant nackedAt = n1Status.types().get(CDS).nack().at();
      ClientRecord.Key n1Key = new ClientRecord.Key("replica-a", "n1", n1Status.streamId(), CDS);
      assertThat(store.clients().recentNacks(10)).containsExactly(
          new NackEvent(n1Key, "test-fleet", nackedAt, 2, 2, BAD_TIMEOUT, List.of("a")));
      ClientRecord n1Row = row("n1");
      assertThat(n1Row.position()).extracting(ClientRecord.Position::sentEpoch, ClientRecord.Position::ackedEpoch,
          ClientRecord.Position::ackedVersion).containsExactly(2L, 1L, "1");
      assertThat(n1Row.lastNack()).isEqualTo(new ClientRecord.LastNack(2, BAD_TIMEOUT, nackedAt));
      // Its standing NACK too: the leader rolls back what other replicas' clients refuse from these rows.
      assertThat(n1Row.position().refusing()).containsOnlyKeys("a");
      assertThat(seenAt(n1Row, T0)).isIn(freshRowsButSeen());
      assertThat(n1Row.nackCount()).isEqualTo(1);
      assertThat(n1Row.userAgent()).isEqualTo("raw-ads");
      assertThat(n1Row.connected()).isTrue();
      assertThat(row("n2").position().ackedEpoch()).isEqualTo(1);
      assertThat(row("n2").lastNack()).isNull();

      n2.close();
      await().until(() -> xds.clients().size() == 1);
      clock.advance(Duration.ofSeconds(5));
      recorder.tick();
      recorder.tick();

      assertThat(store.batches).hasSize(3);
      assertThat(store.batches.get(2)).singleElement().satisfies(r -> {
        assertThat(r.key().nodeId()).isEqualTo("n2");
        assertThat(r.connected()).isFalse();
        assertThat(r.lastSeenAt()).isEqualTo(T0.plusSeconds(5));
        // Its last row says how far it got, the ACK held back included.
        assertThat(r.position().ackedEpoch()).isEqualTo(2);
      });
      assertThat(store.clients().recentNacks(10)).hasSize(1);
    }
  }

  @Test
  void rewritesAnUnchangedRowOnceItsRefreshIsDue() throws Exception {
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS)) {
      n1.ack(n1.next());
      await().until(() -> ackedEpochs().equals(List.of(1L)));
      recorder.tick();
      clock.advance(Duration.ofSeconds(59));
      recorder.tick();
      assertThat(store.batches).hasSize(1);

      clock.advance(Duration.ofSeconds(1));
      recorder.tick();

      assertThat(store.batches).hasSize(2);
      assertThat(row("n1").lastSeenAt()).isEqualTo(T0.plusSeconds(60));
    }
  }

  @Test
  void aRowThatOnlyMovedItsDeliveryWaitsForItsRefreshUntilAnotherReplicaReadsTheRows() throws Exception {
    java.util.concurrent.atomic.AtomicReference<java.util.Set<String>> others =
        new java.util.concurrent.atomic.AtomicReference<>(java.util.Set.of());
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS);
        ClientStatusRecorder alone = new ClientStatusRecorder(xds, store, clock,
            new ClientStatusRecorder.Settings("replica-a", Duration.ofMillis(50), Duration.ofMinutes(1)), others::get)) {
      n1.ack(n1.next());
      await().until(() -> syncedEpochs().equals(List.of(1L)));
      alone.tick();
      assertThat(store.batches).hasSize(1);

      // Epoch 2 gives CDS the same content: the client holds it without a response.
      xds.publish(clusters.next("a", 1));
      await().until(() -> syncedEpochs().equals(List.of(2L)));
      alone.tick();
      clock.advance(Duration.ofSeconds(30));
      alone.tick();

      assertThat(store.batches).hasSize(1);
      assertThat(row("n1").position().syncedEpoch()).isEqualTo(1);

      // A replica appears: it reads these rows, so the row held back is written at once.
      others.set(java.util.Set.of("replica-b"));
      alone.tick();

      assertThat(store.batches).hasSize(2);
      assertThat(row("n1").position().syncedEpoch()).isEqualTo(2);
      assertThat(connectedRowsButSeen()).isEqualTo(freshRowsButSeen());

      // And from then on without waiting.
      xds.publish(clusters.next("a", 1));
      await().until(() -> syncedEpochs().equals(List.of(3L)));
      alone.tick();
      assertThat(store.batches).hasSize(3);
      assertThat(row("n1").position().syncedEpoch()).isEqualTo(3);

      // Alone again: an epoch held without a response, then one sent and ACKed, both held back;
      // the refresh brings the row up to date.
      others.set(java.util.Set.of());
      xds.publish(clusters.next("a", 1));
      await().until(() -> syncedEpochs().equals(List.of(4L)));
      alone.tick();
      xds.publish(clusters.next("a", 2));
      n1.ack(n1.next());
      await().until(() -> ackedEpochs().equals(List.of(5L)));
      alone.tick();
      assertThat(store.batches).hasSize(3);
      assertThat(row("n1").position().ackedEpoch()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(60));
      alone.tick();
      assertThat(store.batches).hasSize(4);
      assertThat(row("n1").position()).extracting(ClientRecord.Position::ackedEpoch,
          ClientRecord.Position::syncedEpoch).containsExactly(5L, 5L);
      assertThat(connectedRowsButSeen()).isEqualTo(freshRowsButSeen());
    }
  }

  @Test
  void onStartMarksWhatAPreviousProcessLeftConnectedBeforeWritingItsOwnRows() throws Exception {
    ClientRecord left = new ClientRecord(new ClientRecord.Key("replica-a", "n1", 1, CDS), "test-fleet", "", "",
        ClientRecord.Position.NOTHING_SENT, null, 0, T0.minusSeconds(30), true);
    store.clients().save(List.of(left));
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS)) {
      n1.ack(n1.next());
      await().until(() -> ackedEpochs().equals(List.of(1L)));

      recorder.start();

      await().untilAsserted(() -> assertThat(store.clients().all())
          .extracting(r -> r.key().streamId() == 1 ? "old" : "new", ClientRecord::connected)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("new", true),
              org.assertj.core.groups.Tuple.tuple("old", false)));
    }
  }

  @Test
  void closingAfterTheServerRecordsItsClientsAsDisconnected() throws Exception {
    xds.publish(clusters.next("a", 1));
    try (AdsClient n1 = new AdsClient(xds.port(), "n1", CDS)) {
      n1.ack(n1.next());
      await().until(() -> ackedEpochs().equals(List.of(1L)));
      recorder.start();
      await().until(() -> !store.clients().all().isEmpty());

      xds.close();
      recorder.close();

      assertThat(store.clients().all()).singleElement().extracting(ClientRecord::connected).isEqualTo(false);
    }
  }

  /** The connected rows in the store, as a fresh look at the server would write them (seen times aside). */
  private java.util.Set<ClientRecord> connectedRowsButSeen() {
    return store.clients().all().stream().filter(ClientRecord::connected).map(r -> seenAt(r, T0))
        .collect(java.util.stream.Collectors.toSet());
  }

  private java.util.Set<ClientRecord> freshRowsButSeen() {
    return xds.clients().stream().flatMap(c -> ClientRows.of("replica-a", c, T0).stream())
        .collect(java.util.stream.Collectors.toSet());
  }

  private static ClientRecord seenAt(ClientRecord r, Instant at) {
    return new ClientRecord(r.key(), r.nodeCluster(), r.zone(), r.userAgent(), r.position(), r.lastNack(),
        r.nackCount(), at, r.connected());
  }

  private List<Long> syncedEpochs() {
    return xds.clients().stream()
        .map(c -> c.types().containsKey(CDS) ? c.types().get(CDS).syncedEpoch() : -1L)
        .toList();
  }

  private List<Long> ackedEpochs() {
    return xds.clients().stream()
        .map(c -> c.types().containsKey(CDS) ? c.types().get(CDS).ackedEpoch() : -1L)
        .toList();
  }

  private ClientRecord row(String nodeId) {
    return store.clients().all().stream().filter(r -> r.key().nodeId().equals(nodeId)).findFirst().orElseThrow();
  }
}
