package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.LeaseStoreContract;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoredLease;
import io.signalbox.store.embedded.PostgresExtension;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresLeaseStoreTest extends LeaseStoreContract {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  @Override
  protected SnapshotStore openStore(Clock clock) {
    return PostgresSnapshotStore.open(postgres.newDatabase(), postgres.user(), postgres.password(), clock);
  }

  @Test
  void leasesSurviveReopeningTheStore() {
    String url = postgres.newDatabase();
    StoredLease capacity = new StoredLease("web", "10.0.0.2", 80, "b", 3, Map.of("v", "2"), "pods", T0,
        T0.plusSeconds(30), 250);
    try (SnapshotStore first = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock)) {
      first.leases().put(lease("web", "10.0.0.1", 80, 30));
      first.leases().put(capacity);
    }
    try (SnapshotStore second = PostgresSnapshotStore.open(url, postgres.user(), postgres.password(), clock)) {
      assertThat(second.leases().all()).containsExactly(lease("web", "10.0.0.1", 80, 30), capacity);
    }
  }
}
