package io.signalbox.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.signalbox.store.EnvelopeSealer;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/** The store against the stock PostgreSQL image, where Docker exists (not on this project's CI). */
class TestcontainersPostgresTest {

  @Test
  void storesEpochsInTheStockPostgresImage() {
    assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
        "Docker not available: skipping the Testcontainers PostgreSQL check");
    try (PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:17-alpine")) {
      container.start();
      try (PostgresSnapshotStore store = PostgresSnapshotStore.open(
          container.getJdbcUrl(), container.getUsername(), container.getPassword(), Clock.systemUTC())) {
        assertThat(store.append(EnvelopeSealer.because("startup")).getEpoch()).isEqualTo(1);
        assertThat(store.latest()).isPresent();
      }
    }
  }
}
