package io.signalbox.store.memory;

import io.signalbox.store.DeltaChainContract;
import io.signalbox.store.SnapshotStore;

class InMemoryDeltaChainTest extends DeltaChainContract {

  @Override
  protected SnapshotStore openStore() {
    return new InMemorySnapshotStore(CLOCK);
  }
}
