package io.signalbox.store.memory;

import io.signalbox.store.OverrideStoreContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryOverrideStoreTest extends OverrideStoreContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
