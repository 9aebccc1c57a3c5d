package io.signalbox.store.memory;

import io.signalbox.store.LeadershipContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryLeadershipTest extends LeadershipContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
