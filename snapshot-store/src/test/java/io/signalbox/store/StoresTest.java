package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.signalbox.store.embedded.PostgresExtension;
import io.signalbox.store.memory.InMemorySnapshotStore;
import io.signalbox.store.postgres.PostgresSnapshotStore;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StoresTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();

  private final Clock clock = Clock.systemUTC();

  @Test
  void memoryMeansTheHeap() {
    try (SnapshotStore store = Stores.open(new StoreSettings("memory", Path.of("unused"), "", ""), clock)) {
      assertThat(store).isInstanceOf(InMemorySnapshotStore.class);
    }
  }

  @Test
  void aJdbcUrlMeansThatServer() {
    StoreSettings settings = new StoreSettings(postgres.jdbcUrl(), Path.of("unused"), postgres.user(), postgres.password());
    try (SnapshotStore store = Stores.open(settings, clock)) {
      assertThat(store).isInstanceOf(PostgresSnapshotStore.class);
      assertThat(store.append(EnvelopeSealer.because("startup")).getEpoch()).isEqualTo(1);
    }
  }

  @Test
  void rejectsAnyOtherUrl() {
    assertThatThrownBy(() -> Stores.open(new StoreSettings("mysql://db", Path.of("unused"), "", ""), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("store.url must be 'embedded', 'memory' or a jdbc:postgresql:// URL, was 'mysql://db'");
  }
}
