package io.signalbox.store;

import java.time.Clock;

class InMemoryLoadReportStoreTest extends LoadReportStoreContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
