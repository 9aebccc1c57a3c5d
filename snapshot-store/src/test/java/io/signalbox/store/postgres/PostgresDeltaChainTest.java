package io.signalbox.store.postgres;

import static io.signalbox.store.ChainSealer.CLUSTERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.ChainSealer;
import io.signalbox.store.DeltaChainContract;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.chain.EpochChain;
import io.signalbox.store.embedded.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDeltaChainTest extends DeltaChainContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private String url;

  @Override
  protected SnapshotStore openStore() {
    url = postgres.newDatabase();
    return PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK);
  }

  /** (epoch, base_epoch, envelope size, full copy size or 0) of every row, oldest first. */
  private record Row(long epoch, long base, int bytes, int fullCopyBytes) {}

  private List<Row> rows() throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        ResultSet r = c.createStatement().executeQuery(
            "SELECT epoch, base_epoch, length(envelope), coalesce(length(full_envelope), 0) FROM epochs ORDER BY epoch")) {
      while (r.next()) {
        rows.add(new Row(r.getLong(1), r.getLong(2), r.getInt(3), r.getInt(4)));
      }
    }
    return rows;
  }

  @Test
  void aDeltaOnATipAnotherWriterPrunedMeanwhileIsWrittenFull() throws SQLException {
    appendChain(2);
    try (SnapshotStore other = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK)) {
      other.append(new ChainSealer().restoredFrom(sealed.get(2)).onParent(3).put(CLUSTERS, "z", "z-1"));
      assertThat(other.prune(1, java.util.Set.of())).isEqualTo(3);
    }
    // This store's tip (3) is gone; its sealer still offers a delta on it.
    sealer.onParent(3).put(CLUSTERS, "a", "a-2");
    SnapshotEnvelope next = store.append(sealer);

    assertThat(rows()).extracting(Row::epoch, Row::base).containsExactly(
        org.assertj.core.groups.Tuple.tuple(4L, 4L), org.assertj.core.groups.Tuple.tuple(5L, 5L));
    try (SnapshotStore fresh = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), CLOCK)) {
      assertThat(fresh.load(5)).contains(next);
    }
  }

  @Test
  void aCheckpointAddsAFullCopyLeavingTheDeltaRowAndItsChainAsTheyWere() throws SQLException {
    appendChain(EpochChain.MAX_DEPTH / 2);
    SnapshotEnvelope due = sealed.get(sealed.size() - 1);
    Row before = rows().get((int) due.getEpoch() - 1);

    store.checkpoint(due);
    store.checkpoint(due);

    Row after = rows().get((int) due.getEpoch() - 1);
    assertThat(after).isEqualTo(new Row(due.getEpoch(), 1, before.bytes(), due.getSerializedSize()));
    assertThat(before.fullCopyBytes()).isZero();
    sealer.put(CLUSTERS, "next", "v");
    append();
    assertThat(rows()).extracting(Row::base).containsOnly(1L);
    assertThat(store.latest()).contains(sealed.get(sealed.size() - 1));
  }

  @Test
  void checkpointsThatLagBehindTheWriterKeepOneChainGoingSoNoAppendWritesTheWholeState() throws SQLException {
    appendChain(3 * EpochChain.MAX_DEPTH);
    // Wherever the reconciler's queue would have asked, a copy of the epoch two before the tip lands.
    int checkpoints = 0;
    for (int i = 0; i < 3 * EpochChain.MAX_DEPTH; i++) {
      sealer.put(CLUSTERS, "stream", "v" + i);
      append();
      if (store.checkpointDue()) {
        store.checkpoint(sealed.get(sealed.size() - 3));
        checkpoints++;
      }
    }

    List<Row> rows = rows();
    long firstOfStream = 3 * EpochChain.MAX_DEPTH + 2;
    assertThat(rows.stream().filter(r -> r.epoch() >= firstOfStream)).extracting(Row::base)
        .as("no append after the first checkpoint started a chain").containsOnly(rows.get((int) firstOfStream - 1).base());
    assertThat(checkpoints).isGreaterThanOrEqualTo(5);
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
  }

  @Test
  void appendsGoOnPastTheBoundWhileACheckpointIsBeingWritten() throws Exception {
    appendChain(EpochChain.MAX_DEPTH / 2);
    SnapshotEnvelope due = sealed.get(sealed.size() - 1);
    // Past the bound counting from epoch 1, within it counting from the copy being written.
    int meanwhile = EpochChain.MAX_DEPTH / 2 + 2;
    ExecutorService background = Executors.newSingleThreadExecutor();
    try (Connection holder = DriverManager.getConnection(url, postgres.user(), postgres.password());
        Connection watcher = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      // Another session holds the row, so the checkpoint's write stays in flight until it lets go.
      holder.setAutoCommit(false);
      holder.createStatement().execute("SELECT 1 FROM epochs WHERE epoch = " + due.getEpoch() + " FOR UPDATE");
      Future<?> checkpoint = background.submit(() -> store.checkpoint(due));
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingForALock(watcher));

      assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        for (int i = 0; i < meanwhile; i++) {
          sealer.put(CLUSTERS, "while-" + i, "v");
          append();
        }
      });

      assertThat(checkpoint).isNotDone();
      holder.rollback();
      checkpoint.get(10, TimeUnit.SECONDS);
    } finally {
      background.shutdownNow();
    }
    assertThat(rows()).extracting(Row::base).containsOnly(1L);
    assertThat(rows().get((int) due.getEpoch() - 1).fullCopyBytes()).isEqualTo(due.getSerializedSize());
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
    // Half the bound since the copy: due again, and a copy of the newest ends that.
    assertThat(store.checkpointDue()).isTrue();
    store.checkpoint(sealed.get(sealed.size() - 1));
    assertThat(store.checkpointDue()).isFalse();
  }

  @Test
  void aCheckpointThatFailsAfterTheChainWentPastTheBoundEndsItAtTheNextAppend() throws Exception {
    appendChain(EpochChain.MAX_DEPTH / 2);
    SnapshotEnvelope due = sealed.get(sealed.size() - 1);
    ExecutorService background = Executors.newSingleThreadExecutor();
    try (Connection holder = DriverManager.getConnection(url, postgres.user(), postgres.password());
        Connection watcher = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
      // The row changes under the checkpoint: its hash no longer matches when the write resumes.
      holder.setAutoCommit(false);
      holder.createStatement().execute("UPDATE epochs SET content_hash = 'changed' WHERE epoch = " + due.getEpoch());
      Future<?> checkpoint = background.submit(() -> store.checkpoint(due));
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingForALock(watcher));
      for (int i = 0; i < EpochChain.MAX_DEPTH / 2 + 2; i++) {
        sealer.put(CLUSTERS, "while-" + i, "v");
        append();
      }
      holder.commit();
      checkpoint.get(10, TimeUnit.SECONDS);
    } finally {
      background.shutdownNow();
    }
    assertThat(rows().get((int) due.getEpoch() - 1).fullCopyBytes()).isZero();

    sealer.put(CLUSTERS, "after", "v");
    append();

    List<Row> rows = rows();
    assertThat(rows.get(rows.size() - 2).base()).isEqualTo(1L);
    assertThat(rows.get(rows.size() - 1).base()).isEqualTo(sealed.size());
    for (SnapshotEnvelope full : sealed) {
      assertThat(store.load(full.getEpoch())).contains(full);
    }
  }

  private static boolean waitingForALock(Connection watcher) throws SQLException {
    try (ResultSet r = watcher.createStatement().executeQuery("SELECT count(*) FROM pg_stat_activity"
        + " WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'update%'")) {
      r.next();
      return r.getInt(1) > 0;
    }
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
