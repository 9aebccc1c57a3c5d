package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.model.EndpointState;
import io.signalbox.model.LbPolicy;
import io.signalbox.store.memory.InMemorySnapshotStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Recent snapshots come from memory as published; older ones are read back from the store. */
class EpochHistoryTest {

  private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
  private final InMemorySnapshotStore store = new InMemorySnapshotStore(clock);
  private final StoredEpochs epochs = new StoredEpochs(store, clock);
  private final EpochHistory history = new EpochHistory(store);

  private List<Snapshot> publish(int count) {
    List<Snapshot> published = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Snapshot s = epochs.cluster("web", LbPolicy.ROUND_ROBIN, StoredEpochs.endpoint(8000 + i, EndpointState.READY))
          .append();
      history.remember(s);
      published.add(s);
    }
    return published;
  }

  @Test
  void aRecentEpochIsTheInstancePublished() {
    List<Snapshot> published = publish(3);

    assertThat(history.get(2)).isSameAs(published.get(1));
  }

  @Test
  void anEpochPastTheSixteenKeptIsReadBackFromTheStore() {
    List<Snapshot> published = publish(20);

    Snapshot first = history.get(1);

    assertThat(first).isNotSameAs(published.get(0));
    assertThat(first.epoch()).isEqualTo(1);
    assertThat(first.contentHash()).isEqualTo(published.get(0).contentHash());
    assertThat(history.get(1)).as("kept once read").isSameAs(first);
  }

  @Test
  void anEpochNoOneStoredIsNull() {
    publish(2);

    assertThat(history.get(99)).isNull();
  }
}
