package io.signalbox.store.memory;

import io.signalbox.store.LeaseStoreContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryLeaseStoreTest extends LeaseStoreContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
