package io.signalbox.store.memory;

import io.signalbox.store.ClientStatusContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryClientStatusTest extends ClientStatusContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
