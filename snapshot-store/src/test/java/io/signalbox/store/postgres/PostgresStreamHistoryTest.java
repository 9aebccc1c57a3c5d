package io.signalbox.store.postgres;

import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StreamHistoryContract;
import io.signalbox.store.embedded.PostgresExtension;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresStreamHistoryTest extends StreamHistoryContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return PostgresSnapshotStore.open(postgres.newDatabase(), postgres.user(), postgres.password(), clock);
  }
}
