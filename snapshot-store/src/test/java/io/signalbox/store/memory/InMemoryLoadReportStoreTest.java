package io.signalbox.store.memory;

import io.signalbox.store.LoadReportStoreContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryLoadReportStoreTest extends LoadReportStoreContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
