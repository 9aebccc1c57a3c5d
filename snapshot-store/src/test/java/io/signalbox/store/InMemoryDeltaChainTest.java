package io.signalbox.store;

class InMemoryDeltaChainTest extends DeltaChainContract {

  @Override
  SnapshotStore openStore() {
    return new InMemorySnapshotStore(CLOCK);
  }
}
