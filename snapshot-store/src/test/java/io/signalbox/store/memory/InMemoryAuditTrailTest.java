package io.signalbox.store.memory;

import io.signalbox.store.AuditTrailContract;
import io.signalbox.store.SnapshotStore;
import java.time.Clock;

class InMemoryAuditTrailTest extends AuditTrailContract {

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return new InMemorySnapshotStore(clock);
  }
}
