package io.signalbox.controlplane.telemetry;

import static io.signalbox.controlplane.telemetry.LrsTestServer.locality;
import static io.signalbox.controlplane.telemetry.LrsTestServer.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A locality a client leaves out of its report while it had calls in flight there: the sequences
 * @grpc/grpc-js-xds 1.14 sends (it reports a locality only with calls started, succeeded or failed
 * since its previous report, and a cluster only with such a locality or drops), which must not read
 * as idle while a long stream is open.
 */
class InFlightCarryForwardTest {

  private static final Duration INTERVAL = Duration.ofMillis(300);
  private static final Locality ZONE_A = new Locality("", "a", "");
  private static final Locality ZONE_B = new Locality("", "b", "");

  private final LrsTestServer lrs = new LrsTestServer(INTERVAL,
      new KnownClusters(1, Map.of("greeter", Set.of(ZONE_A, ZONE_B))));
  private final Instant started = Instant.now();

  @AfterEach
  void stop() throws InterruptedException {
    lrs.close();
  }

  /** The client's work in {@code greeter}/{@code locality}: in flight, idle. */
  private org.assertj.core.groups.Tuple work(String node, Locality locality) {
    return lrs.fleet().work("greeter", locality).stream().filter(w -> w.client().nodeId().equals(node))
        .map(w -> tuple(w.inFlight(), w.idle())).findFirst().orElse(tuple("not listed"));
  }

  /** Whether any closed interval after {@code since} summed {@code inFlight} in flight in {@code locality}. */
  private boolean someIntervalSummed(Locality locality, long inFlight, Instant since) {
    return lrs.fleet().load("greeter", started.minusSeconds(60)).localities().stream()
        .anyMatch(l -> l.locality().equals(locality) && l.endpoint().isEmpty() && l.inFlight() == inFlight
            && !l.intervalStart().isBefore(since));
  }

  @Test
  void aStreamInFlightStaysInFlightWhileGrpcJsLeavesItsLocalityOut() throws InterruptedException {
    LrsTestServer.Client js = lrs.open("web-js");
    // Interval 1: the stream starts in a.
    js.report(stats("greeter", locality("a", 1, 0, 0, 1)));
    await().atMost(Duration.ofSeconds(20)).until(() -> work("web-js", ZONE_A).equals(tuple(1L, false)));

    // Interval 2: only the open stream: grpc-js leaves the cluster out altogether.
    js.report();
    // Interval 3: unary calls to b; a (stream still open) left out again.
    Instant afterB = Instant.now();
    js.report(stats("greeter", locality("b", 4, 4, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(work("web-js", ZONE_A)).isEqualTo(tuple(1L, false));
      assertThat(work("web-js", ZONE_B)).isEqualTo(tuple(0L, true));
      // The fleet's in-flight gauge for a closed interval after the omission still counts it.
      assertThat(someIntervalSummed(ZONE_A, 1, afterB.minus(INTERVAL))).isTrue();
    });

    // The stream ends: grpc-js reports a again, with the call finished and nothing in progress.
    js.report(stats("greeter", locality("a", 0, 1, 0, 0)));
    await().atMost(Duration.ofSeconds(20)).until(() -> work("web-js", ZONE_A).equals(tuple(0L, true)));
  }

  @Test
  void aLocalityLeftOutWithNothingInFlightBeforeIsIdle() throws InterruptedException {
    LrsTestServer.Client js = lrs.open("web-js");
    js.report(stats("greeter", locality("a", 3, 3, 0, 0), locality("b", 1, 0, 0, 1)));
    js.report(stats("greeter", locality("b", 0, 1, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(work("web-js", ZONE_A)).isEqualTo(tuple(0L, true));
      assertThat(work("web-js", ZONE_B)).isEqualTo(tuple(0L, true));
    });
  }

  @Test
  void aCarriedCountEndsWithTheClientsLrsStream() throws InterruptedException {
    LrsTestServer.Client js = lrs.open("web-js");
    js.report(stats("greeter", locality("a", 1, 0, 0, 1)));
    js.report();
    await().atMost(Duration.ofSeconds(20)).until(() -> work("web-js", ZONE_A).equals(tuple(1L, false)));

    js.end();
    // The same node on a new stream (a restarted process) has none of the old calls; it reports
    // only b, and a must not inherit the old stream's count.
    LrsTestServer.Client restarted = lrs.open("web-js");
    restarted.report(stats("greeter", locality("b", 2, 2, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(work("web-js", ZONE_A)).isEqualTo(tuple(0L, true));
      assertThat(work("web-js", ZONE_B)).isEqualTo(tuple(0L, true));
    });
  }

  @Test
  void aCarriedCountEndsWhenTheClientComesBackAfterASilence() throws InterruptedException {
    LrsTestServer.Client js = lrs.open("web-js");
    js.report(stats("greeter", locality("a", 1, 0, 0, 1)));
    await().atMost(Duration.ofSeconds(20)).until(() -> work("web-js", ZONE_A).equals(tuple(1L, false)));
    ReportingClient before = lrs.fleet().work("greeter", ZONE_A).get(0).client();

    // Silent for longer than three intervals (stale), then a report that leaves a out: nothing
    // vouches for the old call any more.
    await().atMost(Duration.ofSeconds(20)).until(() -> Instant.now()
        .isAfter(before.lastReport().plus(INTERVAL.multipliedBy(4))));
    js.report(stats("greeter", locality("b", 1, 1, 0, 0)));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(lrs.fleet().work("greeter", ZONE_A)).singleElement().satisfies(w -> {
        assertThat(w.client().reportingSince()).isAfter(before.reportingSince());
        assertThat(w.inFlight()).isZero();
      });
    });
  }
}
