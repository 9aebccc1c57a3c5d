package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SnapshotStore} does with client status rows and NACK events; run against
 * PostgreSQL and the in-memory store by the subclasses.
 */
public abstract class ClientStatusContract {

  protected static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
  protected static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  protected static final String EDS = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

  protected final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  protected static ClientRecord.Key key(String replica, String node, long stream, String typeUrl) {
    return new ClientRecord.Key(replica, node, stream, typeUrl);
  }

  protected static ClientRecord acked(ClientRecord.Key key, long epoch, Instant seen) {
    return new ClientRecord(key, "fleet", "zone-a", "grpc-java 1.85.1",
        new ClientRecord.Position(String.valueOf(epoch), epoch, seen.minusSeconds(2), String.valueOf(epoch), epoch,
            seen.minusSeconds(1), epoch),
        null, 0, seen, true);
  }

  protected static ClientRecord nacked(ClientRecord.Key key, Instant seen) {
    return new ClientRecord(key, "fleet", "zone-a", "envoy 1.31",
        new ClientRecord.Position("2", 2, seen.minusSeconds(3), "1", 1, seen.minusSeconds(10), 1),
        new ClientRecord.LastNack(2, "cluster 'a': bad lb policy", seen.minusSeconds(2)), 3, seen, true);
  }

  @Test
  void readsBackEveryFieldOfARow() {
    ClientRecord withNack = nacked(key("host-a/1", "envoy-1", 7, CDS), T0);
    ClientRecord nothingSent = new ClientRecord(key("host-a/1", "grpc-1", 8, EDS), "", "", "",
        ClientRecord.Position.NOTHING_SENT, null, 0, T0.minusSeconds(1), true);

    store.clients().save(List.of(withNack, nothingSent));

    assertThat(store.clients().all()).containsExactly(withNack, nothingSent);
  }

  @Test
  void keepsTimesToTheMicrosecond() {
    // PostgreSQL's precision; the store sends times as microseconds since the epoch.
    Instant seen = T0.plusNanos(123_456_000);
    ClientRecord row = nacked(key("host-a/1", "envoy-1", 7, CDS), seen);

    store.clients().save(List.of(row));

    assertThat(store.clients().all()).containsExactly(row);
  }

  @Test
  void replacesARowByItsKeyAndTheLaterOfTwoInOneBatchWins() {
    ClientRecord.Key k = key("host-a/1", "envoy-1", 7, CDS);
    store.clients().save(List.of(nacked(k, T0)));

    // The later row clears the NACK: replacing means every column, NULLs included.
    store.clients().save(List.of(acked(k, 3, T0.plusSeconds(1)), acked(k, 4, T0.plusSeconds(2))));

    assertThat(store.clients().all()).containsExactly(acked(k, 4, T0.plusSeconds(2)));
  }

  @Test
  void keepsOneRowPerReplicaStreamAndType() {
    List<ClientRecord> rows = List.of(
        acked(key("host-a/1", "envoy-1", 1, CDS), 1, T0),
        acked(key("host-a/1", "envoy-1", 1, EDS), 1, T0),
        acked(key("host-a/1", "envoy-1", 2, CDS), 1, T0),
        acked(key("host-b/1", "envoy-1", 1, CDS), 1, T0));

    store.clients().save(rows);

    assertThat(store.clients().all()).containsExactlyInAnyOrderElementsOf(rows);
  }

  @Test
  void listsTheMostRecentlySeenFirst() {
    ClientRecord old = acked(key("host-a/1", "envoy-1", 1, CDS), 1, T0.minusSeconds(60));
    ClientRecord newest = acked(key("host-a/1", "envoy-2", 2, CDS), 1, T0);
    ClientRecord middleB = acked(key("host-b/1", "envoy-3", 3, CDS), 1, T0.minusSeconds(5));
    ClientRecord middleA = acked(key("host-a/1", "envoy-3", 3, CDS), 1, T0.minusSeconds(5));

    store.clients().save(List.of(old, newest, middleB, middleA));

    assertThat(store.clients().all()).containsExactly(newest, middleA, middleB, old);
  }

  @Test
  void savesLargeBatches() {
    List<ClientRecord> rows = new ArrayList<>();
    for (int i = 0; i < 1_200; i++) {
      rows.add(acked(key("host-a/1", "envoy-" + i, i, EDS), 1, T0));
    }

    store.clients().save(rows);
    store.clients().save(List.of());

    assertThat(store.clients().all()).hasSize(1_200);
  }

  @Test
  void marksConnectedRowsDisconnectedButThoseOfLiveReplicasAndKeepsThem() {
    ClientRecord live = acked(key("host-a/1", "envoy-1", 1, CDS), 1, T0);
    ClientRecord gone = acked(key("host-a/1", "envoy-2", 2, CDS), 1, T0.minusSeconds(30)).disconnected(T0.minusSeconds(20));
    ClientRecord otherReplica = acked(key("host-b/7", "envoy-3", 1, CDS), 1, T0.minusSeconds(40));
    store.clients().save(List.of(live, gone, otherReplica));

    assertThat(store.clients().disconnectAllBut(java.util.Set.of("host-b/7"))).isEqualTo(1);
    assertThat(store.clients().disconnectAllBut(java.util.Set.of("host-b/7"))).isZero();
    assertThat(store.clients().all()).containsExactly(live.disconnected(T0), gone, otherReplica);

    assertThat(store.clients().disconnectAllBut(java.util.Set.of())).as("standalone: nobody else is alive").isEqualTo(1);
  }

  @Test
  void keepsAClientsStandingNacks() {
    ClientRecord refusing = new ClientRecord(key("host-a/1", "envoy-1", 1, EDS), "payments", "a", "envoy",
        new ClientRecord.Position("5", 5, T0, "4", 4, T0, 4, java.util.Map.of("greeter", "3f9a", "web=x", "77")),
        null, 0, T0, true);
    store.clients().save(List.of(refusing));

    assertThat(store.clients().all()).containsExactly(refusing);
  }

  @Test
  void keepsTheNamesEachStreamSubscribedToWhateverTheyHold() {
    ClientRecord named = new ClientRecord(key("host-a/1", "grpc-1", 1, EDS), "payments", "a", "grpc-java",
        new ClientRecord.Position("5", 5, T0, "5", 5, T0, 5, java.util.Map.of(), false,
            java.util.Set.of("greeter", "a\nb", "100%", "*x")),
        null, 0, T0, true);
    ClientRecord wildcard = new ClientRecord(key("host-a/1", "grpc-1", 1, CDS), "payments", "a", "grpc-java",
        new ClientRecord.Position("5", 5, T0, "5", 5, T0, 5, java.util.Map.of(), true, java.util.Set.of("extra")),
        null, 0, T0, true);
    store.clients().save(List.of(named, wildcard));

    assertThat(store.clients().all()).containsExactlyInAnyOrder(named, wildcard);
  }

  @Test
  void listsNackEventsNewestFirstAndByTheEpochTheyReject() {
    NackEvent first = nack("envoy-1", 4, 5, T0, List.of("b", "a"));
    NackEvent second = nack("envoy-2", 5, 5, T0.plusSeconds(1), List.of());
    NackEvent third = nack("envoy-1", 6, 6, T0.plusSeconds(2), List.of("c"));

    store.clients().recordNack(first);
    store.clients().recordNack(second);
    store.clients().recordNack(third);

    assertThat(store.clients().recentNacks(2)).containsExactly(third, second);
    assertThat(store.clients().recentNacks(10)).containsExactly(third, second, first);
    assertThat(store.clients().nacksOf(5L)).containsExactly(second, first);
    assertThat(store.clients().nacksOf(7L)).isEmpty();
    assertThat(first.resources()).containsExactly("a", "b");
  }

  @Test
  void refusesAResourceNameWithALineBreak() {
    assertThatThrownBy(() -> nack("envoy-1", 1, 1, T0, List.of("a\nb")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resource name contains a line break: 'a\nb'");
  }

  protected static NackEvent nack(String node, long epoch, long snapshotEpoch, Instant at, List<String> resources) {
    return new NackEvent(key("host-a/1", node, 1, CDS), "fleet", at, epoch, snapshotEpoch,
        "cluster 'a': outlier_detection.max_ejection_percent: must be <= 100, was 150", resources);
  }
}
