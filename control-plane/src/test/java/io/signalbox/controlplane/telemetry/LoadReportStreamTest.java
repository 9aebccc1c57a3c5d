package io.signalbox.controlplane.telemetry;

import static io.signalbox.controlplane.telemetry.LrsTestServer.locality;
import static io.signalbox.controlplane.telemetry.LrsTestServer.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterStats;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsRequest;
import io.envoyproxy.envoy.service.load_stats.v3.LoadStatsResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.store.memory.InMemoryLoadReports;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hand-built load reports over a real gRPC LRS stream on loopback, served behind the xDS edge: how
 * reports from several clients add up, and what the server does with broken ones.
 */
class LoadReportStreamTest {

  private static final Duration INTERVAL = Duration.ofMillis(300);
  private static final Locality ZONE_A = new Locality("", "a", "");
  private static final Locality ZONE_B = new Locality("", "b", "");

  private final Instant started = Instant.now();
  /** Set, the aggregation thread waits on it before summing a report: a server falling behind. */
  private volatile CountDownLatch stall;
  /** What is served; a test may publish another epoch. */
  private volatile KnownClusters known =
      new KnownClusters(1, Map.of("greeter", Set.of(ZONE_A, ZONE_B), "other", Set.of(ZONE_A)));
  private LrsTestServer lrs;
  private LoadReporting reporting;

  @BeforeEach
  void start() {
    reporting = LoadReporting.withKnown(Clock.systemUTC(), INTERVAL, "r1", new InMemoryLoadReports(), () -> {
      CountDownLatch gate = stall;
      if (gate != null) {
        try {
          gate.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return known;
    }, new SimpleMeterRegistry());
    lrs = new LrsTestServer(reporting);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (stall != null) {
      stall.countDown();
    }
    lrs.close();
  }

  /** Issued, succeeded, errored summed over every interval so far, per locality. */
  private long[] totals(String cluster, Locality locality) {
    long[] t = new long[3];
    for (LocalityLoad l : reporting.fleetLoad().load(cluster, started.minusSeconds(60)).localities()) {
      if (l.locality().equals(locality) && l.endpoint().isEmpty()) {
        t[0] += l.issued();
        t[1] += l.succeeded();
        t[2] += l.errored();
      }
    }
    return t;
  }

  @Test
  void aStreamReportingFasterThanItsReportsAreSummedIsEndedInsteadOfQueued() throws InterruptedException {
    stall = new CountDownLatch(1);
    LrsTestServer.Client flood = lrs.open("flood");

    for (int i = 0; i < LoadReportService.MAX_WAITING_REPORTS + 2; i++) {
      flood.report(stats("greeter", locality("a", 1, 1, 0, 0)));
    }
    Object ended = flood.next();
    stall.countDown();

    assertThat(ended).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(e.getStatus().getDescription()).isEqualTo("load reports arrive faster than they are summed: 16 are "
          + "waiting; a client reports once per load_reporting_interval");
    });
  }

  @Test
  void answersWithTheIntervalAndAllClusters() throws InterruptedException {
    LrsTestServer.Client c = lrs.open("n1");

    assertThat(c.answer()).isEqualTo(LoadStatsResponse.newBuilder().setSendAllClusters(true)
        .setReportEndpointGranularity(true).setLoadReportingInterval(Durations.fromMillis(300)).build());
  }

  @Test
  void sumsSeveralClientsPerLocality() throws InterruptedException {
    LrsTestServer.Client one = lrs.open("n1");
    LrsTestServer.Client two = lrs.open("n2");

    one.report(stats("greeter", locality("a", 10, 9, 1, 2), locality("b", 5, 5, 0, 0)));
    two.report(stats("greeter", locality("a", 7, 7, 0, 1)));
    one.report(stats("greeter", locality("a", 3, 3, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(totals("greeter", ZONE_A)).containsExactly(20, 19, 1);
      assertThat(totals("greeter", ZONE_B)).containsExactly(5, 5, 0);
    });
    assertThat(reporting.fleetLoad().load("greeter", started).clients()).extracting(ReportingClient::nodeId)
        .containsExactly("n1", "n2");
    assertThat(reporting.fleetLoad().clusters()).containsExactly("greeter");
  }

  @Test
  void tellsPerClientWhetherWorkIsInFlightAndSinceWhenItIsIdle() throws InterruptedException {
    LrsTestServer.Client busy = lrs.open("busy");
    LrsTestServer.Client idle = lrs.open("idle");

    busy.report(stats("greeter", locality("a", 1, 0, 0, 1)));
    idle.report(stats("greeter", locality("a", 1, 1, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(reporting.fleetLoad().work("greeter", ZONE_A))
            .extracting(w -> w.client().nodeId(), ClientWork::inFlight, ClientWork::idle)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("busy", 1L, false),
                org.assertj.core.groups.Tuple.tuple("idle", 0L, true)));

    // The busy client's call ends; its next report counts it as succeeded, with nothing in progress.
    Instant before = Instant.now();
    busy.report(stats("greeter", locality("a", 0, 1, 0, 0), locality("b", 1, 1, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      ClientWork work = reporting.fleetLoad().work("greeter", ZONE_A).get(0);
      assertThat(work.idle()).isTrue();
      assertThat(work.idleSince()).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    });
  }

  @Test
  void aClientThatDisconnectsMidIntervalKeepsWhatItReported() throws InterruptedException {
    LrsTestServer.Client leaving = lrs.open("leaving");
    leaving.report(stats("greeter", locality("a", 4, 4, 0, 0)));
    leaving.end();
    LrsTestServer.Client staying = lrs.open("staying");
    staying.report(stats("greeter", locality("a", 6, 6, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(totals("greeter", ZONE_A)).containsExactly(10, 10, 0));
  }

  @Test
  void aRestartedClientsCountersStartAgainWithoutLosingOrRepeatingCounts() throws InterruptedException {
    LrsTestServer.Client before = lrs.open("n1");
    before.report(stats("greeter", locality("a", 100, 100, 0, 3)));
    before.end();
    // The same node after a restart: its counters start from zero and its stream is new.
    LrsTestServer.Client after = lrs.open("n1");
    after.report(stats("greeter", locality("a", 2, 2, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(totals("greeter", ZONE_A)).containsExactly(102, 102, 0);
      assertThat(reporting.fleetLoad().work("greeter", ZONE_A)).singleElement()
          .satisfies(w -> assertThat(w.inFlight()).isZero());
    });
  }

  @Test
  void refusesAndCountsUnknownClustersLocalitiesAndAbsurdValuesWithoutEndingTheStream()
      throws InterruptedException {
    LrsTestServer.Client c = lrs.open("n1");

    c.report(stats("nobody-serves-this", locality("a", 1, 1, 0, 0)),
        stats("greeter",
            locality("never-sent", 1, 1, 0, 0),
            locality("a", -1, 0, 0, 0),                  // uint64 2^64-1 as Java reads it
            locality("a", Long.MIN_VALUE, 0, 0, 0),      // 2^63
            locality("a", 1, 1, 0, Long.MAX_VALUE),
            locality("b", 5, 5, 0, 0)));
    c.report(stats("greeter", locality("b", 1, 1, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(totals("greeter", ZONE_B)).containsExactly(6, 6, 0);
      assertThat(totals("greeter", ZONE_A)).containsExactly(0, 0, 0);
    });
    assertThat(reporting.refused(LoadMetrics.UNKNOWN_CLUSTER)).isEqualTo(1);
    assertThat(reporting.refused(LoadMetrics.UNKNOWN_LOCALITY)).isEqualTo(1);
    assertThat(reporting.refused(LoadMetrics.ABSURD_VALUE)).isEqualTo(3);
    assertThat(c.answers).isEmpty();
    assertThat(reporting.fleetLoad().clusters()).containsExactly("greeter");
  }

  @Test
  void aLocalityNoLongerServedIsRefusedFromTheEpochThatDroppedItAndCountsAgainOnceServedAgain()
      throws InterruptedException {
    LrsTestServer.Client c = lrs.open("n1");
    c.report(stats("greeter", locality("b", 1, 1, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> totals("greeter", ZONE_B)[0] == 1);

    known = new KnownClusters(2, Map.of("greeter", Set.of(ZONE_A)));
    c.report(stats("greeter", locality("b", 10, 10, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> reporting.refused(LoadMetrics.UNKNOWN_LOCALITY) == 1);

    known = new KnownClusters(3, Map.of("greeter", Set.of(ZONE_A, ZONE_B)));
    c.report(stats("greeter", locality("b", 100, 100, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> totals("greeter", ZONE_B)[0] == 101);
    assertThat(reporting.refused(LoadMetrics.UNKNOWN_LOCALITY)).isEqualTo(1);
  }

  @Test
  void refusesAStreamWhoseFirstRequestNamesNoNode() throws InterruptedException {
    LrsTestServer.Client nameless = lrs.start(LoadStatsRequest.getDefaultInstance());

    assertThat(nameless.next()).isInstanceOfSatisfying(Throwable.class, t ->
        assertThat(Status.fromThrowable(t).toString()).isEqualTo(
            "Status{code=INVALID_ARGUMENT, description=the first load report request must carry node.id, cause=null}"));
  }

  @Test
  void countsDropsPerCategoryAndTheUncategorizedRest() throws InterruptedException {
    LrsTestServer.Client c = lrs.open("n1");
    c.report(ClusterStats.newBuilder().setClusterName("greeter").setTotalDroppedRequests(10)
        .addDroppedRequests(ClusterStats.DroppedRequests.newBuilder().setCategory("signalbox_overload").setDroppedCount(7))
        .build());

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(reporting.fleetLoad().load("greeter", started.minusSeconds(60)).drops())
            .extracting(DropLoad::category, DropLoad::dropped)
            .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("", 3L),
                org.assertj.core.groups.Tuple.tuple("signalbox_overload", 7L)));
  }
}
