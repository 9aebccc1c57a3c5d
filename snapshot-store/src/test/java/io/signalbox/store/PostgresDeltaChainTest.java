package io.signalbox.store;

import static io.signalbox.store.ChainSealer.CLUSTERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDeltaChainTest extends DeltaChainContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private String url;

  @Override
  SnapshotStore openStore() {
    url = postgres.newDatabase();
    return PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK);
  }

  /** (epoch, base_epoch, envelope size) of every row, oldest first. */
  private record Row(long epoch, long base, int bytes) {}

  private List<Row> rows() throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        ResultSet r = c.createStatement().executeQuery(
            "SELECT epoch, base_epoch, length(envelope) FROM epochs ORDER BY epoch")) {
      while (r.next()) {
        rows.add(new Row(r.getLong(1), r.getLong(2), r.getInt(3)));
      }
    }
    return rows;
  }

  @Test
  void writesDeltasOnTheFirstCheckpointUntilTheBoundThenAnotherCheckpoint() throws SQLException {
    appendChain(EpochChain.MAX_DEPTH + 2);

    List<Row> rows = rows();
    assertThat(rows).extracting(Row::base).containsOnly(1L, EpochChain.MAX_DEPTH + 2L);
    assertThat(rows.get(EpochChain.MAX_DEPTH)).extracting(Row::epoch, Row::base)
        .containsExactly(EpochChain.MAX_DEPTH + 1L, 1L);
    assertThat(rows.get(EpochChain.MAX_DEPTH + 1)).extracting(Row::epoch, Row::base)
        .containsExactly(EpochChain.MAX_DEPTH + 2L, EpochChain.MAX_DEPTH + 2L);
    assertThat(rows.get(EpochChain.MAX_DEPTH + 2).base()).isEqualTo(EpochChain.MAX_DEPTH + 2L);
  }

  @Test
  void startsANewCheckpointOnceTheDeltasOutweighTheLastOne() throws SQLException {
    for (int i = 0; i < 10; i++) {
      sealer.put(CLUSTERS, "cluster-" + i, "version 0 of cluster " + i);
    }
    append();
    for (int epoch = 2; epoch <= 5; epoch++) {
      // Every resource changes: each delta is about as large as the checkpoint.
      for (int i = 0; i < 10; i++) {
        sealer.put(CLUSTERS, "cluster-" + i, "version " + epoch + " of cluster " + i);
      }
      append();
    }

    assertThat(rows()).extracting(Row::base).containsExactly(1L, 1L, 3L, 3L, 5L);
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
  }

  @Test
  void aDeltaHoldsOnlyWhatChanged() throws SQLException {
    for (int i = 0; i < 200; i++) {
      sealer.put(CLUSTERS, "cluster-" + i, "content of cluster " + i).endpoints("cluster-" + i, "10.0.0." + i);
    }
    append();
    sealer.endpoints("cluster-7", "10.0.0.7", "10.0.0.8");
    append();

    List<Row> rows = rows();
    assertThat(rows.get(1).base()).isEqualTo(1);
    assertThat(rows.get(1).bytes()).isLessThan(rows.get(0).bytes() / 20);
    assertThat(store.load(2)).contains(sealed.get(1));
  }

  @Test
  void aRestartedStoreRestoresTheLatestEpochAndStartsANewChain() throws SQLException {
    appendChain(10);
    store.close();

    store = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK);
    SnapshotEnvelope restored = store.latest().orElseThrow();
    assertThat(restored).isEqualTo(sealed.get(10));
    // Its sealer knows the restored epoch; the new store has appended nothing, so it writes a checkpoint.
    ChainSealer afterRestart = new ChainSealer().restoredFrom(restored).put(CLUSTERS, "x", "x-1");
    SnapshotEnvelope first = store.append(afterRestart);
    SnapshotEnvelope second = store.append(afterRestart.put(CLUSTERS, "y", "y-1"));

    assertThat(rows()).extracting(Row::epoch, Row::base).endsWith(
        org.assertj.core.groups.Tuple.tuple(12L, 12L), org.assertj.core.groups.Tuple.tuple(13L, 12L));
    assertThat(store.load(12)).contains(first);
    assertThat(store.latest()).contains(second);
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
  }
}
