package io.signalbox.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.source.FakeClock;
import io.signalbox.store.HistorySettings;
import io.signalbox.store.StreamEvent;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HistoryRecorderTest {

  private static final Instant T0 = Instant.parse("2026-12-07T05:00:00Z");
  private final FakeClock clock = new FakeClock(T0);
  private final RecordingStore store = new RecordingStore(new InMemorySnapshotStore(clock));
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private HistoryRecorder recorder;

  @AfterEach
  void close() {
    if (recorder != null) {
      recorder.close();
    }
    store.close();
  }

  private HistoryRecorder recorder(int capacity, int batch, HistorySettings retention) {
    recorder = new HistoryRecorder(store.history(), clock, new HistoryRecorder.Settings("replica-a", retention,
        capacity, batch, Duration.ofMillis(100), Duration.ofMinutes(1)), meters);
    return recorder;
  }

  private StreamEvent sent(int i) {
    return StreamEvent.of(clock.instant(), "replica-a", "node-" + i, i, "CLUSTER", StreamEvent.Kind.SENT, 1, "1");
  }

  private double counter(String name) {
    return meters.get(name).counter().count();
  }

  @Test
  void writesWhatIsQueuedInBatchesOfAtMostTheBatchSize() {
    HistoryRecorder r = recorder(100, 5, HistorySettings.defaults());
    for (int i = 0; i < 12; i++) {
      r.offer(sent(i));
    }
    r.round();
    assertThat(store.historyBatches).extracting(List::size).containsExactly(5, 5, 2);
    assertThat(store.history().count()).isEqualTo(12);
    assertThat(counter("signalbox_history_written_events")).isEqualTo(12);
  }

  @Test
  void aFullQueueDropsAndCountsInsteadOfWaiting() {
    HistoryRecorder r = recorder(3, 10, HistorySettings.defaults());
    for (int i = 0; i < 5; i++) {
      r.offer(sent(i));
    }
    assertThat(counter("signalbox_history_dropped_events")).isEqualTo(2);
    r.round();
    assertThat(store.history().ofNode("node-0", T0, null, 10)).hasSize(1);
    assertThat(store.history().count()).isEqualTo(3);
  }

  @Test
  void theWriterThreadGathersABurstIntoFewStatementsOffTheCallersThread() {
    HistoryRecorder r = recorder(10_000, 5_000, HistorySettings.defaults()).start();
    for (int i = 0; i < 2_000; i++) {
      r.offer(sent(i));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> store.history().count() == 2_000);
    // A burst offered within one interval is gathered: a handful of statements, not one per event.
    assertThat(store.historyBatches.size()).isLessThanOrEqualTo(4);
    assertThat(store.historyThreads).containsExactly("stream-history-writer");
  }

  @Test
  void retentionDeletesEventsOlderThanRetainAndBeyondMaxEvents() {
    HistoryRecorder r = recorder(100, 100, new HistorySettings(true, Duration.ofMinutes(10), 3L));
    r.offer(sent(0));
    r.round();
    clock.advance(Duration.ofMinutes(11));
    for (int i = 1; i <= 5; i++) {
      r.offer(sent(i));
    }
    // The first round pruned at T0; the next is due a minute later: this one deletes the event
    // older than ten minutes, then all but the newest three.
    r.round();
    assertThat(store.history().count()).isEqualTo(3);
    assertThat(store.history().ofNode("node-0", T0, null, 10)).isEmpty();
    assertThat(store.history().ofNode("node-3", T0, null, 10)).hasSize(1);
    assertThat(store.history().ofNode("node-2", T0, null, 10)).isEmpty();

    r.offer(sent(6));
    r.round();
    assertThat(store.history().count()).as("not due again within a minute").isEqualTo(4);
  }

  @Test
  void closingWritesWhatIsStillQueued() {
    HistoryRecorder r = recorder(100, 100, HistorySettings.defaults()).start();
    r.offer(sent(0));
    r.close();
    recorder = null;
    assertThat(store.history().count()).isEqualTo(1);
  }
}
