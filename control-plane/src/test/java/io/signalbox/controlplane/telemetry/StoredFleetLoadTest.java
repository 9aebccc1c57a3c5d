package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.LoadReportStore;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fleet's figures while the database is down: nothing reported, and no error for the reader. */
class StoredFleetLoadTest {

  /** A store whose database cannot be reached. */
  static final class UnreachableLoadReports implements LoadReportStore {
    private static StoreUnavailableException down() {
      return new StoreUnavailableException("snapshot store unavailable (read load reports)", null);
    }

    @Override
    public void write(List<LoadRow> loads, List<DropRow> drops, List<ClientLoadRow> clients) {
      throw down();
    }

    @Override
    public int touch(List<ClientFreshness> clients) {
      throw down();
    }

    @Override
    public List<LoadRow> loads(String cluster, Instant since) {
      throw down();
    }

    @Override
    public List<DropRow> drops(String cluster, Instant since) {
      throw down();
    }

    @Override
    public List<LoadRow> loads(Instant since) {
      throw down();
    }

    @Override
    public List<DropRow> drops(Instant since) {
      throw down();
    }

    @Override
    public List<ClientLoadRow> clients(Instant since) {
      throw down();
    }

    @Override
    public List<String> clusters(Instant since) {
      throw down();
    }

    @Override
    public int deleteBefore(Instant cutoff) {
      throw down();
    }
  }

  private final StoredFleetLoad load = new StoredFleetLoad(new UnreachableLoadReports(), Clock.systemUTC(),
      Duration.ofSeconds(10), Duration.ofHours(1));

  @Test
  void anUnreachableStoreReadsAsNothingReportedSoStatusAndDrainsKeepAnswering() {
    assertThat(load.clusters()).isEmpty();
    ClusterLoad greeter = load.load("greeter", Instant.EPOCH);
    assertThat(greeter.cluster()).isEqualTo("greeter");
    assertThat(greeter.localities()).isEmpty();
    assertThat(greeter.clients()).isEmpty();
    // No client's work is known: a drain on this cluster waits for its deadline, never "idle".
    assertThat(load.work("greeter", new Locality("", "a", ""))).isEmpty();
    // Also when every cluster's rows are read at once (a scrape).
    assertThat(load.oneRead(Instant.EPOCH).load("greeter", Instant.EPOCH).localities()).isEmpty();
  }
}
