package io.signalbox.store;

import java.time.Clock;

class InMemoryLeaseStoreTest extends LeaseStoreContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
