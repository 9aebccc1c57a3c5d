package io.signalbox.store;

import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresLoadReportStoreTest extends LoadReportStoreContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  @Override
  SnapshotStore openStore(Clock clock) {
    return PostgresSnapshotStore.open(postgres.newDatabase(), postgres.user(), postgres.password(), clock);
  }
}
