package io.signalbox.store;

import java.time.Clock;

class InMemoryClientStatusTest extends ClientStatusContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
