package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.LoadReportStore.ClientFreshness;
import io.signalbox.store.LoadReportStore.ClientLoadRow;
import io.signalbox.store.LoadReportStore.DropRow;
import io.signalbox.store.LoadReportStore.LoadRow;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link LoadReportStore} promises; run against each store by the subclasses. */
public abstract class LoadReportStoreContract {

  protected static final Instant T0 = Instant.parse("2026-12-04T05:00:00Z");
  protected static final Instant T1 = T0.plusSeconds(10);
  protected final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static LoadRow load(Instant at, String replica, String zone, long issued) {
    return new LoadRow(at, replica, "greeter", "", zone, "", "", issued, issued - 1, 1, 2);
  }

  private static ClientLoadRow client(String node, String replica, Instant last) {
    return new ClientLoadRow(node, replica, last, T0, "greeter\n", "greeter\t\ta\t\t\t0\t" + T0.toEpochMilli() + "\n");
  }

  @Test
  void twoReplicasWriteTheirOwnRowsAndOneReaderSeesBoth() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(load(T0, "r1", "a", 10)), List.of(), List.of(client("n1", "r1", T0)));
    reports.write(List.of(load(T0, "r2", "a", 5), load(T0, "r2", "b", 7)),
        List.of(new DropRow(T0, "r2", "greeter", "signalbox_overload", 3)), List.of(client("n2", "r2", T0)));

    assertThat(reports.loads("greeter", T0)).containsExactly(
        load(T0, "r1", "a", 10), load(T0, "r2", "a", 5), load(T0, "r2", "b", 7));
    assertThat(reports.drops("greeter", T0)).containsExactly(new DropRow(T0, "r2", "greeter", "signalbox_overload", 3));
    assertThat(reports.clients(T0)).containsExactly(client("n1", "r1", T0), client("n2", "r2", T0));
    assertThat(reports.clusters(T0)).containsExactly("greeter");
    assertThat(reports.loads("other", T0)).isEmpty();
  }

  @Test
  void aRetriedWriteReplacesItsRowsInsteadOfCountingTwice() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(load(T0, "r1", "a", 10)), List.of(new DropRow(T0, "r1", "greeter", "", 1)), List.of());
    reports.write(List.of(load(T0, "r1", "a", 12)), List.of(new DropRow(T0, "r1", "greeter", "", 2)), List.of());

    assertThat(reports.loads("greeter", T0)).containsExactly(load(T0, "r1", "a", 12));
    assertThat(reports.drops("greeter", T0)).containsExactly(new DropRow(T0, "r1", "greeter", "", 2));
  }

  @Test
  void aClientRowIsReplacedByANewerReportOnly() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(), List.of(), List.of(client("n1", "r1", T1)));
    reports.write(List.of(), List.of(), List.of(client("n1", "r1", T0)));

    assertThat(reports.clients(T0)).containsExactly(client("n1", "r1", T1));
  }

  @Test
  void aTouchMovesAClientRowsLastReportForwardKeepingItsClustersAndWork() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(), List.of(), List.of(client("n1", "r1", T0), client("n2", "r1", T1)));

    assertThat(reports.touch(List.of(new ClientFreshness("n1", "r1", T1), new ClientFreshness("n2", "r1", T0),
        new ClientFreshness("gone", "r1", T1)))).isEqualTo(1);

    ClientLoadRow moved = client("n1", "r1", T0);
    assertThat(reports.clients(T0)).containsExactly(new ClientLoadRow("n1", "r1", T1, moved.reportingSince(),
        moved.clusters(), moved.work()), client("n2", "r1", T1));
  }

  @Test
  void readsOnlyIntervalsFromTheGivenStart() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(load(T0, "r1", "a", 10), load(T1, "r1", "a", 20)), List.of(), List.of());

    assertThat(reports.loads("greeter", T1)).containsExactly(load(T1, "r1", "a", 20));
  }

  @Test
  void readsEveryClustersRowsAtOnceByClusterThenInterval() {
    LoadReportStore reports = store.loadReports();
    LoadRow webEarly = new LoadRow(T0, "r1", "web", "", "a", "", "", 3, 3, 0, 0);
    LoadRow webLate = new LoadRow(T1, "r2", "web", "", "a", "", "", 4, 4, 0, 1);
    reports.write(List.of(load(T1, "r1", "a", 20), webLate, load(T0, "r1", "a", 10), webEarly),
        List.of(new DropRow(T1, "r1", "web", "x", 1), new DropRow(T1, "r1", "greeter", "x", 2),
            new DropRow(T0, "r1", "greeter", "x", 5)), List.of());

    assertThat(reports.loads(T0)).containsExactly(load(T0, "r1", "a", 10), load(T1, "r1", "a", 20), webEarly, webLate);
    assertThat(reports.loads(T1)).containsExactly(load(T1, "r1", "a", 20), webLate);
    assertThat(reports.drops(T1)).containsExactly(new DropRow(T1, "r1", "greeter", "x", 2),
        new DropRow(T1, "r1", "web", "x", 1));
  }

  @Test
  void deletesRowsOlderThanTheCutoff() {
    LoadReportStore reports = store.loadReports();
    reports.write(List.of(load(T0, "r1", "a", 10), load(T1, "r1", "a", 20)),
        List.of(new DropRow(T0, "r1", "greeter", "", 1)), List.of(client("old", "r1", T0), client("new", "r1", T1)));

    assertThat(reports.deleteBefore(T1)).isEqualTo(3);

    assertThat(reports.loads("greeter", T0)).containsExactly(load(T1, "r1", "a", 20));
    assertThat(reports.drops("greeter", T0)).isEmpty();
    assertThat(reports.clients(T0)).extracting(ClientLoadRow::nodeId).containsExactly("new");
  }
}
