package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.signalbox.store.LoadReportStore.LoadRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Demand as automatic shedding reads it (issue 41), on simulated time: three clients of 50 rps each,
 * reporting every 10 s from their own start (so an aligned interval holds zero, one or two of a
 * client's reports), each report covering the time since that client's previous one as grpc-java's
 * {@code load_report_interval} says. The figure is read every 100 ms; it must never read more than
 * the 150 rps offered, whatever the arrivals, and must read exactly that once the window is
 * settled. The first issue-41 failure read 295 rps here.
 */
class DemandWindowTest {

  private static final long I = 10_000;
  private static final Duration INTERVAL = Duration.ofMillis(I);
  private static final double RATE = 50; // per client
  private static final double OFFERED = 3 * RATE;

  /** One client: when its stats started counting and when its last delivered report was sent. */
  private static final class Client {
    final long phase;
    long countingSince;
    long lastDelivered = -1;

    Client(long phase) {
      this.phase = phase;
    }
  }

  /**
   * A replica (its spread, its id) writing into a store that replaces a row of the same interval,
   * replica and cluster; time moves in 100 ms steps.
   */
  private static final class Fleet {
    final Map<String, LoadRow> store = new HashMap<>();
    final List<Client> clients = List.of(new Client(1_300), new Client(4_900), new Client(9_900));
    final List<DemandWindow> reads = new ArrayList<>();
    /** Times at which reports are not delivered (server down or client cut off), per client index. */
    final Map<Integer, long[]> cutOff = new HashMap<>();
    final Set<Long> restarts = new TreeSet<>();
    long serverDownUntil = -1;
    DemandSpread spread = new DemandSpread(I, 0);
    long now;

    /** Moves time on to {@code until}, one read per step (read {@code i} is at {@code (i + 1) × 100 ms}). */
    void run(long until) {
      for (long t = now + 100; t <= until; t += 100) {
        now = t;
        if (restarts.contains(t)) {
          // A restart: the new process knows nothing of the old one's spread; reports fail for 2 s.
          serverDownUntil = t + 2_000;
        }
        if (t == serverDownUntil) {
          spread = new DemandSpread(I, t - t % I);
        }
        for (int i = 0; i < clients.size(); i++) {
          Client c = clients.get(i);
          if (t >= c.phase && (t - c.phase) % I == 0 && delivered(i, t)) {
            long covered = t - c.countingSince;
            spread.add(0, t, covered, Math.round(RATE * covered / 1000.0));
            c.countingSince = t;
            c.lastDelivered = t;
          }
        }
        if (t % I == 0 && t > serverDownUntil) {
          spread.changed("r1", cluster -> "greeter").forEach(r -> store.put(r.intervalStart() + "|" + r.replica(), r));
        }
        Instant at = Instant.ofEpochMilli(t);
        long from = DemandWindow.start(at, INTERVAL).toEpochMilli();
        int reporting = (int) clients.stream().filter(c -> c.lastDelivered >= 0 && c.lastDelivered >= from).count();
        reads.add(DemandWindow.of(store.values(), reporting, at, INTERVAL));
      }
    }

    private boolean delivered(int client, long t) {
      long[] cut = cutOff.get(client);
      return !(t < serverDownUntil && serverDownUntil >= 0) && (cut == null || t < cut[0] || t >= cut[1]);
    }

    /** The reads from {@code from} on. */
    List<DemandWindow> after(long from) {
      return reads.subList((int) (from / 100) - 1, reads.size());
    }

    double maxRps() {
      return reads.stream().mapToDouble(DemandWindow::rps).max().orElse(0);
    }
  }

  @Test
  void steadyReportsReadTheOfferedRateOnceTheWindowIsCovered() {
    Fleet fleet = new Fleet();
    fleet.run(200_000);

    assertThat(fleet.maxRps()).isLessThanOrEqualTo(OFFERED + 0.01);
    DemandWindow last = fleet.reads.get(fleet.reads.size() - 1);
    assertThat(last.rps()).isCloseTo(OFFERED, within(0.01));
    assertThat(last.coverage()).isCloseTo(1.0, within(0.001));
    assertThat(last.settled()).isTrue();
    // Once settled, every read is the offered rate, whichever of the clients' phases it falls on.
    assertThat(fleet.after(100_000)).allSatisfy(w -> assertThat(w.rps()).isCloseTo(OFFERED, within(0.01)));
  }

  @Test
  void aClientsFirstReportsAreNeverABurst() {
    // Each client's stats start at 0; its first report covers its phase, and the next one lands in
    // the same aligned interval for the first two clients (two reports in one interval).
    Fleet fleet = new Fleet();
    fleet.run(70_000);

    assertThat(fleet.maxRps()).isLessThanOrEqualTo(OFFERED + 0.01);
    // The window is not settled while it reaches back before the clients' first reports: until
    // 65 s, when the window (read half an interval late, an interval before) starts at 0.
    assertThat(fleet.reads.subList(0, 649)).noneMatch(DemandWindow::settled);
    assertThat(fleet.after(65_000)).allSatisfy(w -> {
      assertThat(w.settled()).isTrue();
      assertThat(w.rps()).isCloseTo(OFFERED, within(0.01));
    });
  }

  @Test
  void aCatchUpReportAfterAnOutageIsSpreadOverTheTimeItCovers() {
    Fleet fleet = new Fleet();
    // Client 1's reports do not arrive for a minute; its next one covers the whole minute and more.
    fleet.cutOff.put(1, new long[] {60_000, 125_000});
    fleet.run(240_000);

    assertThat(fleet.maxRps()).isLessThanOrEqualTo(OFFERED + 0.01);
    // While the window holds part of its time (its last report came at 54.9 s), it says so; once the
    // window is past that report, the client has left it altogether and the other two are the fleet
    // (125 s), until its catch-up report (at 134.9 s, written at 140 s) fills the window again.
    assertThat(fleet.after(85_000).subList(0, 300)).noneMatch(DemandWindow::settled);
    assertThat(fleet.reads.get(127_000 / 100 - 1)).satisfies(w -> {
      assertThat(w.settled()).isTrue();
      assertThat(w.rps()).isCloseTo(2 * RATE, within(0.01));
    });
    assertThat(fleet.after(140_100)).allSatisfy(w -> assertThat(w.rps()).isCloseTo(OFFERED, within(0.01)));
  }

  @Test
  void aServerRestartWithNoHistoryNeverReadsMoreThanWasSent() {
    for (long restart : List.of(63_200L, 70_000L, 79_900L)) {
      Fleet fleet = new Fleet();
      fleet.restarts.add(restart);
      fleet.run(240_000);

      assertThat(fleet.maxRps()).as("restart at %d", restart).isLessThanOrEqualTo(OFFERED + 0.01);
      assertThat(fleet.after(200_000)).allSatisfy(w -> assertThat(w.rps()).isCloseTo(OFFERED, within(0.01)));
    }
  }

  @Test
  void aServerRestartWithAnEmptyStoreIsNotSettledUntilTheWindowHasPassedIt() {
    Fleet fleet = new Fleet();
    fleet.run(100_000);
    // A memory store: the restart loses every row.
    fleet.store.clear();
    fleet.restarts.add(100_100L);
    fleet.run(100_100 + 100_000);

    List<DemandWindow> afterRestart = fleet.after(100_100);
    assertThat(afterRestart.subList(0, 50)).noneMatch(DemandWindow::settled);
    assertThat(afterRestart).allSatisfy(w -> assertThat(w.rps()).isLessThanOrEqualTo(OFFERED + 0.01));
    assertThat(afterRestart.get(afterRestart.size() - 1).rps()).isCloseTo(OFFERED, within(0.01));
  }

  @Test
  void theWindowIsFixedAndEndsAnIntervalBeforeTheOneOpenHalfAnIntervalAgo() {
    Instant now = Instant.ofEpochMilli(1_000_000 + 6_000);
    assertThat(DemandWindow.end(now, INTERVAL)).isEqualTo(Instant.ofEpochMilli(990_000));
    assertThat(DemandWindow.end(now.minusMillis(2_000), INTERVAL)).isEqualTo(Instant.ofEpochMilli(980_000));
    DemandWindow w = DemandWindow.none(now, INTERVAL);
    assertThat(Duration.between(w.from(), w.to())).isEqualTo(INTERVAL.multipliedBy(DemandWindow.INTERVALS));
    assertThat(w.settled()).isFalse();
  }

  @Test
  void theStoreSumsEveryReplicasDemandRowsAndShowsNoneAsALocality() {
    Instant now = Instant.parse("2026-12-07T03:00:06Z");
    var store = new io.signalbox.store.memory.InMemoryLoadReports();
    List<LoadRow> rows = new ArrayList<>();
    // 5 intervals of the window, 10 s each: r1 holds 100 requests a second, r2 50, and each one
    // client covering every interval; one interval before the window (not counted).
    Instant from = DemandWindow.start(now, INTERVAL);
    for (int i = -1; i < DemandWindow.INTERVALS; i++) {
      Instant start = from.plusMillis(i * I);
      rows.add(DemandWindow.row(start, "r1", "greeter", 1_000, I));
      rows.add(DemandWindow.row(start, "r2", "greeter", 500, I));
    }
    rows.add(new LoadRow(from, "r1", "greeter", "", "a", "", "", 1_000, 1_000, 0, 0));
    store.write(rows, List.of(), List.of(
        new io.signalbox.store.LoadReportStore.ClientLoadRow("n1", "r1", now.minusSeconds(1), from, "greeter\n", ""),
        new io.signalbox.store.LoadReportStore.ClientLoadRow("n2", "r2", now.minusSeconds(1), from, "greeter\n", "")));
    FleetLoad load = new StoredFleetLoad(store, java.time.Clock.fixed(now, java.time.ZoneOffset.UTC), INTERVAL,
        LoadReporting.RETENTION);

    DemandWindow w = load.demand("greeter", now);
    assertThat(w.rps()).isCloseTo(150, within(0.001));
    assertThat(w.clients()).isEqualTo(2);
    assertThat(w.coverage()).isCloseTo(1.0, within(0.001));
    assertThat(w.settled()).isTrue();
    assertThat(load.load("greeter", from.minusSeconds(60)).localities()).extracting(LocalityLoad::issued)
        .containsExactly(1_000L);
  }

  @Test
  void theShedCategoryIsTheAutomaticDropsOne() {
    assertThat(DemandWindow.SHED_CATEGORY).isEqualTo(io.signalbox.controlplane.reconcile.AutomaticDrops.CATEGORY);
  }
}
