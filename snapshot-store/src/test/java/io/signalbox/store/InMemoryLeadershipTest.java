package io.signalbox.store;

import java.time.Clock;

class InMemoryLeadershipTest extends LeadershipContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
