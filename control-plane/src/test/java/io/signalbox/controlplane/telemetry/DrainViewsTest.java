package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.validation.DrainProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a drain shows, from hand-fed ACKs and load reports, judged by validation's DrainProgress. */
class DrainViewsTest {

  private static final Instant T0 = Instant.parse("2026-12-04T05:00:00Z");
  private static final EndpointRef B2 = new EndpointRef("greeter", "127.0.0.1", 50002);
  private static final OperatorOverride.Drain DRAIN =
      new OperatorOverride.Drain(B2, "alice", "kernel upgrade", T0, Duration.ofSeconds(30));

  /** A client holding the cluster's endpoints at {@code synced}, last ACKed at {@code ackedAt}. */
  private static ClientStatus holder(String nodeId, long synced, Instant ackedAt) {
    TypeStatus eds = new TypeStatus("v" + synced, synced, ackedAt, "v" + synced, synced, ackedAt, synced, false, 1,
        null, 0, 1, 100, Map.of());
    return new ClientStatus(nodeId, "web", "a", "grpc-java", "", 1, false, T0, "", synced, Duration.ZERO,
        Map.of(XdsType.ENDPOINT.typeUrl(), eds));
  }

  @Test
  void aStreamInFlightHoldsTheDrainAlthoughEveryClientAcked() {
    FakeDrainLoads loads = new FakeDrainLoads(Duration.ofSeconds(1), "greeter")
        .says("c-1", B2, new DrainProgress.InFlight(1, T0.plusSeconds(5)))
        .says("c-2", B2, new DrainProgress.Idle(T0.plusSeconds(1), T0.plusSeconds(5)));

    DrainViews.DrainView v = DrainViews.of(DRAIN, 7L,
        List.of(holder("c-1", 7, T0.plusMillis(100)), holder("c-2", 8, T0.plusMillis(200))), loads,
        T0.plusSeconds(5));

    assertThat(v.safeToRemove()).isFalse();
    assertThat(v.basis()).isEqualTo(DrainProgress.Basis.WAITING);
    assertThat(v.verdict()).isEqualTo("in flight: 1 (c-1 1); deadline in 25s");
    assertThat(v.clientsAcked()).isEqualTo(2);
    assertThat(v.ackedBy()).containsExactly("c-1", "c-2");
    assertThat(v.inFlight()).isEqualTo(1);
    assertThat(v.inFlightBy()).containsExactly(new DrainViews.BusyClient("c-1", 1));
    assertThat(v.idle()).containsExactly(new DrainViews.IdleClient("c-2", 4000));
    assertThat(v.loadReporting()).isTrue();
  }

  @Test
  void safeOnceTheStreamEndedAndAnIntervalWasReportedIdle() {
    FakeDrainLoads loads = new FakeDrainLoads(Duration.ofSeconds(1), "greeter")
        .says("c-1", B2, new DrainProgress.Idle(T0.plusSeconds(8), T0.plusSeconds(9)))
        .says("c-2", B2, new DrainProgress.Idle(T0.plusSeconds(1), T0.plusSeconds(9)));

    DrainViews.DrainView v = DrainViews.of(DRAIN, 7L,
        List.of(holder("c-1", 7, T0.plusMillis(100)), holder("c-2", 8, T0.plusMillis(200))), loads,
        T0.plusMillis(9200));

    assertThat(v.safeToRemove()).isTrue();
    assertThat(v.basis()).isEqualTo(DrainProgress.Basis.IDLE);
    assertThat(v.verdict()).isEqualTo("every client ACKed and every reporting client idle for one interval (1s)");
    assertThat(v.deadlinePassed()).isFalse();
  }

  @Test
  void aClientThatReportsNothingIsNamedAndTheDeadlineDecides() {
    FakeDrainLoads loads = new FakeDrainLoads(Duration.ofSeconds(1), "greeter")
        .says("c-1", B2, new DrainProgress.Idle(T0, T0.plusSeconds(9)));
    List<ClientStatus> holders = List.of(holder("c-1", 7, T0), holder("envoy-1", 7, T0));

    DrainViews.DrainView before = DrainViews.of(DRAIN, 7L, holders, loads, T0.plusSeconds(10));
    DrainViews.DrainView after = DrainViews.of(DRAIN, 7L, holders, loads, T0.plusSeconds(30));

    assertThat(before.safeToRemove()).isFalse();
    assertThat(before.verdict()).isEqualTo("1 client reports nothing (envoy-1): the deadline decides, in 20s");
    assertThat(before.reportingNothing()).containsExactly("envoy-1");
    assertThat(after.safeToRemove()).isTrue();
    assertThat(after.basis()).isEqualTo(DrainProgress.Basis.DEADLINE);
    assertThat(after.verdict()).isEqualTo("deadline passed; 1 client reports nothing (envoy-1)");
  }

  @Test
  void aClusterWithoutLoadReportingKeepsTheAckAndDeadlineRule() {
    // Reports about a cluster that does not ask for them do not count.
    FakeDrainLoads loads = new FakeDrainLoads(Duration.ofSeconds(1))
        .says("c-1", B2, new DrainProgress.Idle(T0, T0.plusSeconds(9)));
    List<ClientStatus> holders = List.of(holder("c-1", 7, T0));

    DrainViews.DrainView before = DrainViews.of(DRAIN, 7L, holders, loads, T0.plusSeconds(10));
    DrainViews.DrainView after = DrainViews.of(DRAIN, 7L, holders, loads, T0.plusSeconds(30));

    assertThat(before.safeToRemove()).isFalse();
    assertThat(before.verdict()).isEqualTo("no load reporting: the deadline decides, in 20s");
    assertThat(before.loadReporting()).isFalse();
    assertThat(after.safeToRemove()).isTrue();
    assertThat(after.verdict()).isEqualTo("deadline passed; no load reporting");
  }

  @Test
  void aClientOnAnEarlierEpochIsNamedAndHoldsTheDrain() {
    DrainViews.DrainView v = DrainViews.of(DRAIN, 7L, List.of(holder("c-1", 7, T0), holder("c-2", 6, T0)),
        DrainLoads.NONE, T0.plusSeconds(40));

    assertThat(v.safeToRemove()).isFalse();
    assertThat(v.verdict()).isEqualTo("1 of 2 clients have not ACKed epoch 7 or later: c-2");
    assertThat(v.notAckedBy()).containsExactly("c-2");
    assertThat(v.clientsAcked()).isEqualTo(1);
    assertThat(v.clientsTotal()).isEqualTo(2);
  }
}
