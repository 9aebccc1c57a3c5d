package io.signalbox.controlplane.fleet;

import static io.signalbox.controlplane.fleet.FleetTest.CDS;
import static io.signalbox.controlplane.fleet.FleetTest.T0;
import static io.signalbox.controlplane.fleet.FleetTest.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Convergence of recent epochs: exact where the xDS server measured a client's convergence, an upper
 * bound where it did not, NACKs counted, at most twenty epochs kept.
 */
class ConvergenceHistoryTest {

  private final NavigableMap<Long, Instant> times = new TreeMap<>();
  private final ConvergenceHistory history = new ConvergenceHistory();

  /** Epoch {@code e} created at T0 + e minutes. */
  private Instant created(long e) {
    times.put(e, T0.plusSeconds(60 * e));
    return times.get(e);
  }

  private static Fleet.ClientView client(String id, long epoch, Duration converged, NackStatus nack, long current) {
    ClientStatus c = new ClientStatus(id, "web", "a", "", "", 1, false, T0, "rest", epoch, converged,
        Map.of(CDS, type(epoch, epoch, nack)));
    return Fleet.view(c, current, new TreeMap<>(), T0);
  }

  /** Ten clients on epoch 5, which took them 10, 20, … 100 ms. */
  private List<Fleet.ClientView> tenConverged(long epoch) {
    List<Fleet.ClientView> views = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      views.add(client("c" + i, epoch, Duration.ofMillis(10L * i), null, epoch));
    }
    return views;
  }

  @Test
  void sharesOfTheCurrentEpochAreDatedByTheClientsOwnConvergence() {
    Instant created = created(5);

    history.observe(times, 5, tenConverged(5), created.plusSeconds(3));

    ConvergenceHistory.EpochConvergence e = history.recent().get(0);
    assertThat(e.epoch()).isEqualTo(5);
    assertThat(e.clients()).isEqualTo(10);
    assertThat(e.holding()).isEqualTo(10);
    // 50 % of 10 is the 5th fastest client, 90 % the 9th, 99 % and 100 % all ten.
    assertThat(e.seconds()).isEqualTo(new ConvergenceHistory.Seconds(0.05, 0.09, 0.1, 0.1));
    assertThat(history.latest(1)).isEqualTo(0.09);
  }

  @Test
  void aShareNotYetReachedStaysOpenUntilALaterLookSeesIt() {
    Instant created = created(5);
    List<Fleet.ClientView> views = tenConverged(5);
    views.set(9, client("c10", 4, null, null, 5));

    history.observe(times, 5, views, created.plusSeconds(1));
    assertThat(history.recent().get(0).seconds()).isEqualTo(new ConvergenceHistory.Seconds(0.05, 0.09, null, null));

    history.observe(times, 5, tenConverged(5), created.plusSeconds(2));
    assertThat(history.recent().get(0).seconds()).isEqualTo(new ConvergenceHistory.Seconds(0.05, 0.09, 0.1, 0.1));
  }

  @Test
  void aSecondLookAtTheSameFleetLaterChangesNothing() {
    // FleetSampler skips a look when the client list, the epoch and the creation times are the
    // same instances as at its last look; that is sound only if such a look would change nothing.
    Instant created = created(5);
    created(4);
    List<Fleet.ClientView> views = tenConverged(5);
    views.set(8, client("c9", 4, null, null, 5));
    views.set(9, client("c10", 3, null, new NackStatus(4, 4, "bad", T0, Map.of()), 5));
    history.observe(times, 5, views, created.plusSeconds(1));
    List<ConvergenceHistory.EpochConvergence> once = history.recent();

    history.observe(times, 5, views, created.plusSeconds(40));

    assertThat(history.recent()).isEqualTo(once);
    assertThat(once.get(0).seconds()).as("a share is still open").isEqualTo(
        new ConvergenceHistory.Seconds(0.05, null, null, null));
  }

  @Test
  void anEpochSupersededBeforeItWasSeenIsDatedThroughTheNewerOne() {
    created(4);
    Instant five = created(5);

    // Epoch 5 came a minute after 4; clients took 10…100 ms to hold 5, so they held 4 by then too.
    history.observe(times, 5, tenConverged(5), five.plusSeconds(1));

    ConvergenceHistory.EpochConvergence four = history.recent().get(1);
    assertThat(four.epoch()).isEqualTo(4);
    assertThat(four.seconds().p50()).isCloseTo(60.05, within(1e-9));
    assertThat(four.seconds().p100()).isCloseTo(60.1, within(1e-9));
  }

  @Test
  void clientsKnownOnlyToHoldAnOlderEpochAreDatedAtTheLook() {
    created(4);
    Instant five = created(5);
    List<Fleet.ClientView> views = List.of(client("a", 4, null, null, 5), client("b", 4, null, null, 5));

    history.observe(times, 5, views, five.plusSeconds(7));

    assertThat(history.recent().get(1).seconds().p100()).isEqualTo(67.0);
    assertThat(history.recent().get(0).seconds()).isEqualTo(new ConvergenceHistory.Seconds(null, null, null, null));
  }

  @Test
  void nacksOfAnEpochAreCounted() {
    Instant created = created(5);
    NackStatus refused = new NackStatus(5, 5, "unsupported", created.plusMillis(5), Map.of());
    List<Fleet.ClientView> views = new ArrayList<>(tenConverged(5));
    views.set(0, client("c1", 5, Duration.ofMillis(10), refused, 5));

    history.observe(times, 5, views, created.plusSeconds(1));

    assertThat(history.recent().get(0).nacked()).isEqualTo(1);
  }

  @Test
  void keepsTheNewestTwentyEpochs() {
    for (long e = 1; e <= 25; e++) {
      created(e);
      history.observe(times, e, tenConverged(e), times.get(e).plusSeconds(1));
    }

    assertThat(history.recent()).hasSize(ConvergenceHistory.EPOCHS);
    assertThat(history.recent().get(0).epoch()).isEqualTo(25);
    assertThat(history.recent().get(ConvergenceHistory.EPOCHS - 1).epoch()).isEqualTo(6);
  }

  @Test
  void countsOfEveryEpochMatchACountClientByClient() {
    // The history counts in one pass over the fleet; the plain count per epoch is the reference.
    java.util.Random random = new java.util.Random(17);
    for (int round = 0; round < 30; round++) {
      long current = 25 + round;
      for (long e = 1; e <= current; e++) {
        created(e);
      }
      List<Fleet.ClientView> views = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(60); i++) {
        long epoch = current - random.nextInt(25);
        Map<String, io.signalbox.controlplane.xds.TypeStatus> types = new java.util.LinkedHashMap<>();
        for (String url : List.of(CDS, "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment")) {
          NackStatus nack = random.nextInt(3) > 0 ? null
              : new NackStatus(epoch, current - random.nextInt(4), "no", T0, Map.of());
          types.put(url, type(epoch, epoch, nack));
        }
        ClientStatus c = new ClientStatus("c" + i, "web", "a", "", "", i, false, T0, "rest", epoch, null, types);
        views.add(Fleet.view(c, current, times, T0));
      }

      ConvergenceHistory fresh = new ConvergenceHistory();
      fresh.observe(times, current, views, times.get(current).plusSeconds(1));

      assertThat(fresh.recent()).hasSize(ConvergenceHistory.EPOCHS);
      for (ConvergenceHistory.EpochConvergence e : fresh.recent()) {
        long holding = views.stream().filter(v -> v.heldEpoch() >= e.epoch()).count();
        long nacked = views.stream().filter(v -> v.client().nackOf(e.epoch()) != null).count();
        assertThat(e.holding()).as("holding epoch %d, round %d", e.epoch(), round).isEqualTo(holding);
        assertThat(e.clients()).isEqualTo(views.size());
        assertThat(e.nacked()).as("nacked epoch %d, round %d", e.epoch(), round).isEqualTo(nacked);
      }
    }
  }
}
