package io.signalbox.store.memory;

import io.signalbox.store.IntentStoreContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryIntentStoreTest extends IntentStoreContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
