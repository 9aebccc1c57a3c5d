package io.signalbox.store;

import java.time.Clock;

class InMemoryEpochStatusTest extends EpochStatusContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
