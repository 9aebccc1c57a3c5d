package io.signalbox.store.memory;

import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StreamHistoryContract;
import java.time.Clock;

class InMemoryStreamHistoryTest extends StreamHistoryContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
