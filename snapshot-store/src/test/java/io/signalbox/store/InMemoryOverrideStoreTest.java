package io.signalbox.store;

import java.time.Clock;

class InMemoryOverrideStoreTest extends OverrideStoreContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
