package io.signalbox.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.validation.DrainProgress.Basis;
import io.signalbox.validation.DrainProgress.BusyClient;
import io.signalbox.validation.DrainProgress.Drain;
import io.signalbox.validation.DrainProgress.Holder;
import io.signalbox.validation.DrainProgress.Idle;
import io.signalbox.validation.DrainProgress.IdleClient;
import io.signalbox.validation.DrainProgress.InFlight;
import io.signalbox.validation.DrainProgress.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrainProgressTest {

  private static final Instant T0 = Instant.parse("2026-12-04T05:00:00Z");
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Instant DEADLINE = T0.plusSeconds(30);

  private static Instant at(double seconds) {
    return T0.plusMillis((long) (seconds * 1000));
  }

  private static Holder acked(String client, DrainProgress.ClientLoad load) {
    return new Holder(client, true, T0, load);
  }

  private static Verdict judge(Instant now, Holder... holders) {
    return DrainProgress.judge(new Drain(7L, List.of(holders), DEADLINE, true, INTERVAL, now));
  }

  @Test
  void safeOnceEveryReportingClientWasIdleForOneIntervalAfterItsAck() {
    Verdict v = judge(at(2), acked("a", new Idle(at(0), at(1))), acked("b", new Idle(at(0.5), at(1.5))));

    assertThat(v.safe()).isTrue();
    assertThat(v.basis()).isEqualTo(Basis.IDLE);
    assertThat(v.reason()).isEqualTo("every client ACKed and every reporting client idle for one interval (1s)");
    assertThat(v.idle()).containsExactly(new IdleClient("a", Duration.ofSeconds(1)),
        new IdleClient("b", Duration.ofSeconds(1)));
    assertThat(v.acked()).containsExactly("a", "b");
  }

  @Test
  void workInFlightKeepsTheDrainUntilItEndsAlthoughEveryClientAcked() {
    Verdict v = judge(at(5), acked("a", new InFlight(1, at(5))), acked("b", new Idle(at(0), at(5))));

    assertThat(v.safe()).isFalse();
    assertThat(v.reason()).isEqualTo("in flight: 1 (a 1); deadline in 25s");
    assertThat(v.inFlight()).containsExactly(new BusyClient("a", 1));
    assertThat(v.inFlightTotal()).isEqualTo(1);
  }

  @Test
  void idleForLessThanAnIntervalIsNotYetEnough() {
    Verdict v = judge(at(2), acked("a", new Idle(at(1.6), at(2))));

    assertThat(v.safe()).isFalse();
    assertThat(v.reason()).isEqualTo("not yet idle for one interval (1s): a idle 400ms");
  }

  @Test
  void idleEvidenceFromBeforeTheAckDoesNotCount() {
    // Until it ACKed, the client could still pick the endpoint for new work after that report.
    Holder late = new Holder("a", true, at(3), new Idle(at(0), at(2)));

    Verdict v = judge(at(3.5), late);

    assertThat(v.safe()).isFalse();
    assertThat(v.reason()).isEqualTo("not yet idle for one interval (1s): a no report since its ACK");
  }

  @Test
  void aClientThatReportsNothingLeavesItToTheDeadline() {
    Verdict before = judge(at(10), acked("a", new Idle(at(0), at(9))), acked("c", DrainProgress.SILENT));
    Verdict after = judge(DEADLINE, acked("a", new Idle(at(0), at(9))), acked("c", DrainProgress.SILENT));

    assertThat(before.safe()).isFalse();
    assertThat(before.reason()).isEqualTo("1 client reports nothing (c): the deadline decides, in 20s");
    assertThat(before.silent()).containsExactly("c");
    assertThat(after.safe()).isTrue();
    assertThat(after.basis()).isEqualTo(Basis.DEADLINE);
    assertThat(after.reason()).isEqualTo("deadline passed; 1 client reports nothing (c)");
  }

  @Test
  void withoutLoadReportingTheOldRuleHoldsEveryAckAndTheDeadline() {
    List<Holder> holders = List.of(acked("a", DrainProgress.SILENT), acked("b", DrainProgress.SILENT));

    Verdict before = DrainProgress.judge(new Drain(7L, holders, DEADLINE, false, INTERVAL, at(29.9)));
    Verdict after = DrainProgress.judge(new Drain(7L, holders, DEADLINE, false, INTERVAL, DEADLINE));

    assertThat(before.safe()).isFalse();
    assertThat(before.reason()).isEqualTo("no load reporting: the deadline decides, in 100ms");
    assertThat(after.safe()).isTrue();
    assertThat(after.basis()).isEqualTo(Basis.DEADLINE);
    assertThat(after.reason()).isEqualTo("deadline passed; no load reporting");
    assertThat(after.silent()).containsExactly("a", "b");
  }

  @Test
  void aReasonNamesFiveClientsAndCountsTheRest() {
    Holder[] holders = new Holder[7];
    for (int i = 0; i < holders.length; i++) {
      holders[i] = acked("c" + i, DrainProgress.SILENT);
    }

    assertThat(judge(at(10), holders).reason())
        .isEqualTo("7 clients report nothing (c0, c1, c2, c3, c4 and 2 more): the deadline decides, in 20s");
  }

  @Test
  void theDeadlineSaysWhatWorkItDidNotWaitFor() {
    Verdict v = judge(at(31), acked("a", new InFlight(2, at(30.5))), acked("b", new Idle(at(30.8), at(31))));

    assertThat(v.safe()).isTrue();
    assertThat(v.basis()).isEqualTo(Basis.DEADLINE);
    assertThat(v.reason()).isEqualTo("deadline passed; still in flight: 2 (a 2); not yet idle for one interval: b idle 200ms");
    assertThat(v.deadlinePassed()).isTrue();
  }

  @Test
  void aClientThatHasNotAckedHoldsTheDrainEvenPastTheDeadline() {
    Holder behind = new Holder("b", false, null, new Idle(at(0), at(40)));

    Verdict v = judge(at(41), acked("a", new Idle(at(0), at(40))), behind);

    assertThat(v.safe()).isFalse();
    assertThat(v.reason()).isEqualTo("1 of 2 clients have not ACKed epoch 7 or later: b");
    assertThat(v.notAcked()).containsExactly("b");
  }

  @Test
  void aDrainNoEpochCarriesIsNeverSafe() {
    Verdict v = DrainProgress.judge(new Drain(null, List.of(), DEADLINE, true, INTERVAL, at(40)));

    assertThat(v.safe()).isFalse();
    assertThat(v.reason()).isEqualTo("no published epoch drains it yet");
  }

  @Test
  void withNoClientTheDeadlineDecides() {
    Verdict before = judge(at(1));
    Verdict after = judge(DEADLINE);

    assertThat(before.safe()).isFalse();
    assertThat(before.reason()).isEqualTo("no client holds the cluster: the deadline decides, in 29s");
    assertThat(after.safe()).isTrue();
    assertThat(after.reason()).isEqualTo("deadline passed; no client holds the cluster");
  }

  @Test
  void holdingAnyEpochOfTheDrainingRunCounts() {
    assertThat(DrainProgress.holdsDrainingEpoch(7, 7)).isTrue();
    assertThat(DrainProgress.holdsDrainingEpoch(9, 7)).isTrue();
    assertThat(DrainProgress.holdsDrainingEpoch(6, 7)).isFalse();
  }

  @Test
  void durationsReadAsOperatorsWriteThem() {
    assertThat(DrainProgress.human(Duration.ofMillis(450))).isEqualTo("450ms");
    assertThat(DrainProgress.human(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(DrainProgress.human(Duration.ofSeconds(12))).isEqualTo("12s");
    assertThat(DrainProgress.human(Duration.ofSeconds(125))).isEqualTo("2m5s");
    assertThat(DrainProgress.human(Duration.ofMinutes(2))).isEqualTo("2m");
  }
}
