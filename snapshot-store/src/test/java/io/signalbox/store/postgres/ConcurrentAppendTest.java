package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.EnvelopeSealer;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.embedded.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two stores with separate pools on one database stand in for two control-plane replicas. */
class ConcurrentAppendTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private static final int WRITERS = 4;
  private static final int APPENDS_EACH = 50;

  @Test
  void racingWritersGetDistinctGapFreeEpochsInCommitOrder() throws Exception {
    String url = postgres.jdbcUrl();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
    AtomicBoolean writing = new AtomicBoolean(true);
    try (PostgresSnapshotStore a = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC());
        PostgresSnapshotStore b = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), Clock.systemUTC())) {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Long>>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        PostgresSnapshotStore store = w % 2 == 0 ? a : b;
        writers.add(pool.submit(() -> {
          go.await();
          List<Long> mine = new ArrayList<>();
          for (int i = 0; i < APPENDS_EACH; i++) {
            mine.add(store.append(EnvelopeSealer.because("writer")).getEpoch());
          }
          return mine;
        }));
      }
      // A reader sees epochs 1..max at every instant: a gap filled later would show count < max.
      Future<Integer> reader = pool.submit(() -> watchForGaps(url, writing));
      go.countDown();

      List<Long> all = new ArrayList<>();
      for (Future<List<Long>> writer : writers) {
        List<Long> mine = writer.get(60, TimeUnit.SECONDS);
        assertThat(mine).isSorted().doesNotHaveDuplicates().hasSize(APPENDS_EACH);
        all.addAll(mine);
      }
      writing.set(false);
      assertThat(reader.get(10, TimeUnit.SECONDS)).isPositive();

      long total = (long) WRITERS * APPENDS_EACH;
      assertThat(all).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
      assertThat(a.epochs(Integer.MAX_VALUE, Long.MAX_VALUE)).extracting(EpochRecord::epoch)
          .containsExactlyElementsOf(LongStream.rangeClosed(1, total).map(e -> total + 1 - e).boxed().toList());
      assertThat(b.lastEpoch()).isEqualTo(total);
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }
  }

  /** @return how many consistent observations it made */
  private static int watchForGaps(String url, AtomicBoolean writing) throws Exception {
    int observations = 0;
    try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password());
        Statement s = c.createStatement()) {
      do {
        try (ResultSet r = s.executeQuery("SELECT count(*), coalesce(max(epoch), 0) FROM epochs")) {
          r.next();
          assertThat(r.getLong(1)).as("epochs visible vs highest visible").isEqualTo(r.getLong(2));
          observations++;
        }
      } while (writing.get());
    }
    return observations;
  }
}
