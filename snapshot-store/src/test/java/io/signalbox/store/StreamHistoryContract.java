package io.signalbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.store.StreamEvent.Kind;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link StreamHistory} promises; run against each store by the subclasses. */
public abstract class StreamHistoryContract {

  protected static final Instant T0 = Instant.parse("2026-12-07T05:00:00Z");
  protected SnapshotStore store;

  protected abstract SnapshotStore openStore(Clock clock);

  @BeforeEach
  void open() {
    store = openStore(Clock.fixed(T0, ZoneOffset.UTC));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static StreamEvent event(int second, String replica, String node, long stream, String type, Kind kind,
      long epoch) {
    return StreamEvent.of(T0.plusSeconds(second), replica, node, stream, type, kind, epoch, epoch + "-v");
  }

  private static StreamEvent nack(int second, String node, long epoch) {
    return new StreamEvent(T0.plusSeconds(second), "r1", node, 1, "CLUSTER", Kind.NACK, epoch, epoch + "-v",
        "unsupported lb policy: MAGLEV", List.of("greeter", "alpha"));
  }

  @Test
  void aNodesEventsComeBackOldestFirstWithTheirNackMessagesAndFilters() {
    StreamHistory history = store.history();
    history.append(List.of(event(0, "r1", "n1", 1, "CLUSTER", Kind.SENT, 1), event(1, "r1", "n1", 1, "CLUSTER", Kind.ACK, 1),
        event(1, "r1", "n2", 2, "CLUSTER", Kind.SENT, 1)));
    history.append(List.of(event(2, "r1", "n1", 1, "ROUTE", Kind.SENT, 2), nack(3, "n1", 2),
        StreamEvent.closed(T0.plusSeconds(4), "r1", "n1", 1)));

    assertThat(history.ofNode("n1", T0, null, 100)).containsExactly(event(0, "r1", "n1", 1, "CLUSTER", Kind.SENT, 1),
        event(1, "r1", "n1", 1, "CLUSTER", Kind.ACK, 1), event(2, "r1", "n1", 1, "ROUTE", Kind.SENT, 2),
        nack(3, "n1", 2), StreamEvent.closed(T0.plusSeconds(4), "r1", "n1", 1));
    assertThat(history.ofNode("n1", T0, null, 100).get(3).resources()).containsExactly("alpha", "greeter");
    assertThat(history.ofNode("n1", T0.plusSeconds(1), "CLUSTER", 100)).containsExactly(
        event(1, "r1", "n1", 1, "CLUSTER", Kind.ACK, 1), nack(3, "n1", 2),
        StreamEvent.closed(T0.plusSeconds(4), "r1", "n1", 1));
    assertThat(history.ofNode("n1", T0, null, 2)).as("the newest two")
        .containsExactly(nack(3, "n1", 2), StreamEvent.closed(T0.plusSeconds(4), "r1", "n1", 1));
    assertThat(history.ofNode("nobody", T0, null, 100)).isEmpty();
  }

  @Test
  void asOfATimeEachStreamTypeAndKindGivesItsNewestEventUpToThen() {
    StreamHistory history = store.history();
    history.append(List.of(event(0, "r1", "n1", 1, "CLUSTER", Kind.SENT, 1), event(1, "r1", "n1", 1, "CLUSTER", Kind.ACK, 1),
        event(1, "r2", "n1", 1, "CLUSTER", Kind.ACK, 1), event(5, "r1", "n1", 1, "CLUSTER", Kind.SENT, 2),
        event(6, "r1", "n1", 1, "CLUSTER", Kind.ACK, 2)));

    assertThat(history.latestAt(T0.plusSeconds(5))).containsExactlyInAnyOrder(
        event(5, "r1", "n1", 1, "CLUSTER", Kind.SENT, 2), event(1, "r1", "n1", 1, "CLUSTER", Kind.ACK, 1),
        event(1, "r2", "n1", 1, "CLUSTER", Kind.ACK, 1));
    assertThat(history.latestAt(T0.minusSeconds(1))).isEmpty();
  }

  @Test
  void pruningDropsWhatIsTooOldAndThenAllButTheNewest() {
    StreamHistory history = store.history();
    for (int i = 0; i < 10; i++) {
      history.append(List.of(event(i, "r1", "n1", 1, "CLUSTER", Kind.SENT, i)));
    }
    assertThat(history.prune(T0.plusSeconds(3), 100)).isEqualTo(3);
    assertThat(history.count()).isEqualTo(7);
    assertThat(history.prune(T0, 4)).isEqualTo(3);
    assertThat(history.ofNode("n1", T0, null, 100)).extracting(StreamEvent::epoch).containsExactly(6L, 7L, 8L, 9L);
    assertThat(history.prune(T0, 4)).isZero();
  }
}
