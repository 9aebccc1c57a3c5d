package io.signalbox.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Lag per client, aggregation per group and epoch, and folding of many groups, on fixed values. */
class FleetTest {

  static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  static TypeStatus type(long syncedEpoch, long ackedEpoch, NackStatus nack) {
    return new TypeStatus(Long.toString(ackedEpoch), ackedEpoch, T0, Long.toString(ackedEpoch), ackedEpoch, T0,
        syncedEpoch, true, 0, nack, nack == null ? 0 : 1, 1, 100, Map.of());
  }

  static ClientStatus client(String id, String group, long epoch, NackStatus nack) {
    return new ClientStatus(id, group, "a", "test", "", 1, false, T0, "rest", epoch, null, Map.of(CDS, type(epoch, epoch, nack)));
  }

  /** Epochs 1…10 created one minute apart. */
  static NavigableMap<Long, Instant> times() {
    NavigableMap<Long, Instant> times = new TreeMap<>();
    for (long e = 1; e <= 10; e++) {
      times.put(e, T0.plusSeconds(60 * e));
    }
    return times;
  }

  @Test
  void aClientOnTheCurrentEpochHasNoLag() {
    Fleet.ClientView v = Fleet.view(client("n", "web", 10, null), 10, times(), T0.plusSeconds(3600));
    assertThat(v.lagEpochs()).isZero();
    assertThat(v.lagSeconds()).isZero();
    assertThat(v.heldEpoch()).isEqualTo(10);
    assertThat(v.nacking()).isFalse();
  }

  @Test
  void aLaggingClientIsBehindSinceTheFirstEpochItLacks() {
    Fleet.ClientView v = Fleet.view(client("n", "web", 7, null), 10, times(), T0.plusSeconds(600));
    assertThat(v.lagEpochs()).isEqualTo(3);
    // epoch 8 was created at T0 + 480 s
    assertThat(v.lagSeconds()).isEqualTo(120.0);
  }

  @Test
  void aStandingNackHoldsTheClientBelowTheRefusedEpoch() {
    NackStatus nack = new NackStatus(9, 9, "unsupported lb policy: MAGLEV", T0.plusSeconds(545), Map.of());
    ClientStatus c = new ClientStatus("n", "web", "a", "grpc", "", 1, false, T0, "rest", 10, null,
        Map.of(CDS, type(10, 6, nack)));
    Fleet.ClientView v = Fleet.view(c, 10, times(), T0.plusSeconds(600));
    assertThat(v.nacking()).isTrue();
    assertThat(v.heldEpoch()).isEqualTo(8);
    assertThat(v.lagEpochs()).isEqualTo(2);
    assertThat(v.lagSeconds()).isEqualTo(60.0);
  }

  @Test
  void aNackFollowedByANewerAckIsNoLongerStanding() {
    NackStatus old = new NackStatus(5, 5, "bad", T0, Map.of());
    Fleet.ClientView v = Fleet.view(client("n", "web", 10, old), 10, times(), T0);
    assertThat(v.nacking()).isFalse();
    assertThat(v.lagEpochs()).isZero();
  }

  @Test
  void summarizesPerGroupAndPerEpochWithStandingNacksNewestFirst() {
    NavigableMap<Long, Instant> times = times();
    Instant now = T0.plusSeconds(700);
    List<Fleet.ClientView> views = List.of(
        Fleet.view(client("a1", "web", 10, null), 10, times, now),
        Fleet.view(client("a2", "web", 8, null), 10, times, now),
        Fleet.view(client("b1", "", 10, null), 10, times, now),
        Fleet.view(new ClientStatus("c1", "batch", "a", "", "", 1, false, T0, "rest", 10, null,
            Map.of(CDS, type(10, 9, new NackStatus(10, 10, "no", T0.plusSeconds(650), Map.of())))), 10, times, now));
    Fleet.Summary s = Fleet.summarize(views, 10, times.get(10L), 50);
    assertThat(s.clients()).isEqualTo(4);
    assertThat(s.onCurrentEpoch()).isEqualTo(2);
    assertThat(s.nacking()).isEqualTo(1);
    assertThat(s.byEpoch()).containsExactly(Map.entry(10L, 2), Map.entry(9L, 1), Map.entry(8L, 1));
    assertThat(s.groups()).containsExactly(
        new Fleet.Group("batch", 1, 0, 1, 1.0, 100.0, 1),
        new Fleet.Group("none", 1, 1, 0, 0.0, 0.0, 0),
        new Fleet.Group("web", 2, 1, 2, 1.0, 160.0, 0));
    assertThat(s.nacks()).containsExactly(new Fleet.Nack("c1", "batch", CDS, 10, 9, "no", T0.plusSeconds(650)));
  }

  @Test
  void worstFirstPutsNackingThenMostLaggingFirst() {
    NavigableMap<Long, Instant> times = times();
    List<Fleet.ClientView> views = new ArrayList<>(List.of(
        Fleet.view(client("ok", "web", 10, null), 10, times, T0),
        Fleet.view(client("far", "web", 2, null), 10, times, T0),
        Fleet.view(client("near", "web", 9, null), 10, times, T0),
        Fleet.view(new ClientStatus("refuses", "web", "a", "", "", 1, false, T0, "rest", 10, null,
            Map.of(CDS, type(10, 9, new NackStatus(10, 10, "x", T0, Map.of())))), 10, times, T0)));
    views.sort(Fleet.WORST_FIRST);
    assertThat(views).extracting(v -> v.client().nodeId()).containsExactly("refuses", "far", "near", "ok");
  }

  @Test
  void groupsBeyondTheCapAreFoldedIntoOther() {
    Map<String, List<Fleet.ClientView>> byGroup = new TreeMap<>();
    IntStream.range(0, FleetMetrics.MAX_GROUPS + 5).forEach(i -> {
      String g = "g" + i;
      // g0 is the largest group; all others hold one client
      int size = i == 0 ? 3 : 1;
      for (int k = 0; k < size; k++) {
        byGroup.computeIfAbsent(g, x -> new ArrayList<>())
            .add(Fleet.view(client(g + "-" + k, g, 10, null), 10, times(), T0));
      }
    });
    List<Fleet.Group> rows = FleetMetrics.fold(byGroup);
    assertThat(rows).hasSize(FleetMetrics.MAX_GROUPS + 1);
    assertThat(rows.get(0).group()).isEqualTo("g0");
    assertThat(rows.get(0).clients()).isEqualTo(3);
    assertThat(rows.get(rows.size() - 1)).isEqualTo(new Fleet.Group("other", 5, 5, 0, 0.0, 0.0, 0));
  }

  @Test
  void standingNacksWithTheSameMessageAreOneGroupMostClientsFirst() {
    NavigableMap<Long, Instant> times = times();
    Instant now = T0.plusSeconds(700);
    List<Fleet.ClientView> views = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      NackStatus maglev = new NackStatus(9 + i % 2, 9 + i % 2, "unsupported lb policy: MAGLEV", T0.plusSeconds(600 + i),
          Map.of());
      views.add(Fleet.view(refusing("m" + i, i == 2 ? "batch" : "web", maglev), 10, times, now));
    }
    views.add(Fleet.view(refusing("o1", "web", new NackStatus(10, 10, "other", T0.plusSeconds(650), Map.of())), 10,
        times, now));

    Fleet.Summary s = Fleet.summarize(views, 10, times.get(10L), 50);

    assertThat(s.nacksByMessage()).containsExactly(
        new Fleet.NackGroup(CDS, "unsupported lb policy: MAGLEV", 3, List.of("batch", "web"), 9, 10,
            T0.plusSeconds(600), T0.plusSeconds(602)),
        new Fleet.NackGroup(CDS, "other", 1, List.of("web"), 10, 10, T0.plusSeconds(650), T0.plusSeconds(650)));
  }

  /** A client on epoch 10 that ACKed CDS of epoch 8 and then NACKed {@code nack}: it stands. */
  private static ClientStatus refusing(String id, String group, NackStatus nack) {
    return new ClientStatus(id, group, "a", "", "", 1, false, T0, "rest", 10, null, Map.of(CDS, type(10, 8, nack)));
  }
}
