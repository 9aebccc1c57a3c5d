package io.signalbox.store;

import java.time.Clock;

class InMemoryIntentStoreTest extends IntentStoreContract {

  @Override
  SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
