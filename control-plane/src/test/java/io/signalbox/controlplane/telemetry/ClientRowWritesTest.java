package io.signalbox.controlplane.telemetry;

import static io.signalbox.controlplane.telemetry.LrsTestServer.locality;
import static io.signalbox.controlplane.telemetry.LrsTestServer.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a replica writes of a reporting client each interval (issue 30's write cost): its whole row
 * only when the row says something new, else only its last report, which readers judge "stopped
 * reporting" by.
 */
class ClientRowWritesTest {

  private static final Duration INTERVAL = Duration.ofMillis(300);

  private final CountingLoadReports store = new CountingLoadReports();
  private final LrsTestServer lrs = new LrsTestServer(INTERVAL,
      new KnownClusters(1, Map.of("greeter", Set.of(new Locality("", "a", "")))), store);

  @AfterEach
  void stop() throws InterruptedException {
    lrs.close();
  }

  private Instant lastReport() {
    return lrs.fleet().load("greeter", Instant.now().minusSeconds(60)).clients().stream()
        .filter(c -> c.nodeId().equals("web-1")).map(ReportingClient::lastReport).findFirst().orElse(null);
  }

  @Test
  void anUnchangedRowHasOnlyItsLastReportMovedAndAChangedOneIsWrittenWhole() throws InterruptedException {
    LrsTestServer.Client client = lrs.open("web-1");
    client.report(stats("greeter", locality("a", 5, 5, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> store.clientsWritten.get() == 1);
    Instant first = lastReport();
    assertThat(first).isNotNull();

    // Other counts, the same work (nothing in flight, idle since the same time): the row is not rewritten.
    client.report(stats("greeter", locality("a", 7, 6, 1, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> store.clientsTouched.get() >= 1);
    assertThat(store.clientsWritten).hasValue(1);
    assertThat(lastReport()).isAfter(first);

    // Work in flight: the row says something new and is written whole.
    client.report(stats("greeter", locality("a", 3, 0, 0, 3)));
    await().atMost(Duration.ofSeconds(20)).until(() -> store.clientsWritten.get() == 2);
    assertThat(lrs.fleet().work("greeter", new Locality("", "a", ""))).singleElement()
        .satisfies(w -> assertThat(w.inFlight()).isEqualTo(3));
  }
}
