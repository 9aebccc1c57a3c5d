package io.signalbox.store.memory;

import io.signalbox.store.EpochStatusContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryEpochStatusTest extends EpochStatusContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
