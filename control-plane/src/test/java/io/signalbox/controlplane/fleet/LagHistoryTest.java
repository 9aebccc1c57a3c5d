package io.signalbox.controlplane.fleet;

import static io.signalbox.controlplane.fleet.FleetTest.T0;
import static io.signalbox.controlplane.fleet.FleetTest.client;
import static io.signalbox.controlplane.fleet.FleetTest.times;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lag ring buffer: fixed size, oldest overwritten first, samples summed per group. */
class LagHistoryTest {

  private static LagHistory.Sample at(long second) {
    return new LagHistory.Sample(T0.plusSeconds(second), 1, 0, 0, 0, 0, List.of());
  }

  @Test
  void keepsTheNewestSamplesOldestFirst() {
    LagHistory history = new LagHistory(3);
    for (long s = 0; s < 5; s++) {
      history.record(at(s));
    }

    assertThat(history.since(Instant.MIN)).extracting(LagHistory.Sample::at)
        .containsExactly(T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4));
    assertThat(history.since(T0.plusSeconds(4))).extracting(LagHistory.Sample::at).containsExactly(T0.plusSeconds(4));
  }

  @Test
  void anEmptyHistoryHasNoSamples() {
    assertThat(new LagHistory(3).since(Instant.MIN)).isEmpty();
  }

  @Test
  void aSampleCountsClientsBehindAndTheLongestLagPerGroupLargestFirst() {
    Instant now = T0.plusSeconds(700);
    List<Fleet.ClientView> views = List.of(
        Fleet.view(client("w1", "web", 10, null), 10, times(), now),
        Fleet.view(client("w2", "web", 8, null), 10, times(), now),
        Fleet.view(client("w3", "web", 10, null), 10, times(), now),
        Fleet.view(client("b1", "batch", 9, null), 10, times(), now));

    LagHistory.Sample s = LagHistory.sample(now, 10, views);

    // web's w2 lacks epoch 9, created at T0 + 540 s; batch's b1 lacks epoch 10, created at T0 + 600 s.
    assertThat(s).isEqualTo(new LagHistory.Sample(now, 10, 4, 2, 2, 160.0, List.of(
        new LagHistory.GroupLag("web", 3, 1, 2, 160.0),
        new LagHistory.GroupLag("batch", 1, 1, 1, 100.0))));
    assertThat(s.largestGroups(1).groups()).extracting(LagHistory.GroupLag::group).containsExactly("web");
  }
}
