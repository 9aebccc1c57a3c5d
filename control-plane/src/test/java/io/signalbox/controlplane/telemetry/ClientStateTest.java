package io.signalbox.controlplane.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-client table: every key found again, whatever its number, and what a report left out. */
class ClientStateTest {

  /** Key k belongs to cluster k / 3 (three localities per cluster). */
  private static int clusterOf(int key) {
    return key / 3;
  }

  private static Map<Integer, int[]> contents(ClientState c) {
    Map<Integer, int[]> out = new HashMap<>();
    c.forEach(c::names, ClientStateTest::clusterOf, (key, inFlight, idle) -> out.put(key, new int[] {inFlight, idle}));
    return out;
  }

  private static void report(ClientState c, int keys, int inFlightOf, int now) {
    c.beginReport();
    int[] named = new int[keys / 3 + 1];
    int n = 0;
    for (int k = 0; k < keys; k++) {
      c.work(k, (k + inFlightOf) % 4, now);
      if (k % 3 == 0) {
        named[n++] = clusterOf(k);
      }
    }
    c.omitted(named, n, ClientStateTest::clusterOf, now);
  }

  @Test
  void keepsEveryKeyAcrossTheSwitchToFourBytePositions() {
    ClientState c = new ClientState("n", 0);
    int keys = ClientState.SMALL_INDEX_LIMIT + 5_000;

    report(c, keys, 0, 1);
    report(c, keys, 1, 2);

    assertThat(c.size()).isEqualTo(keys);
    Map<Integer, int[]> seen = contents(c);
    assertThat(seen).hasSize(keys);
    for (int k = 0; k < keys; k++) {
      assertThat(seen.get(k)[0]).as("key %d", k).isEqualTo((k + 1) % 4);
    }
  }

  @Test
  void aKeyGoingIdleRemembersWhenAndAKeyNeverBusyKeepsItsFirstReport() {
    ClientState c = new ClientState("n", 0);
    c.beginReport();
    c.work(7, 2, 10);
    c.work(8, 0, 10);
    c.omitted(new int[] {clusterOf(7)}, 1, ClientStateTest::clusterOf, 10);

    c.beginReport();
    c.work(7, 0, 20);
    c.work(8, 0, 20);
    c.omitted(new int[] {clusterOf(7)}, 1, ClientStateTest::clusterOf, 20);

    assertThat(contents(c)).hasEntrySatisfying(7, w -> assertThat(w).containsExactly(0, 20))
        .hasEntrySatisfying(8, w -> assertThat(w).containsExactly(0, 10));
  }

  @Test
  void aBusyKeyLeftOutIsCarriedWithItsClusterAndAnIdleOneIsNot() {
    ClientState c = new ClientState("n", 0);
    c.beginReport();
    c.work(0, 1, 1); // cluster 0, busy
    c.work(6, 0, 1); // cluster 2, idle
    c.omitted(new int[] {0, 2}, 2, ClientStateTest::clusterOf, 1);

    // The next report names only cluster 1.
    c.beginReport();
    c.work(3, 5, 2);
    c.omitted(new int[] {1, 0}, 1, ClientStateTest::clusterOf, 2);

    List<Integer> clusters = new ArrayList<>();
    c.forEachCluster(clusters::add);
    assertThat(clusters).containsExactly(0, 1);
    assertThat(c.names(2)).isFalse();
    assertThat(c.names(1_000)).isFalse();
    assertThat(contents(c)).containsOnlyKeys(3, 0);
    assertThat(contents(c).get(0)).containsExactly(1, 1);
  }

  @Test
  void forgettingDropsEveryCountAndSaysWhetherThereWasOne() {
    ClientState c = new ClientState("n", 0);
    report(c, 30, 0, 1);

    assertThat(c.forget(5)).isTrue();
    assertThat(c.forget(6)).isFalse();
    List<Integer> busy = new ArrayList<>();
    c.forEach(c::names, ClientStateTest::clusterOf, (key, inFlight, idle) -> {
      if (inFlight != 0 || idle != 5 && (key % 4) != 0) {
        busy.add(key);
      }
    });
    assertThat(busy).as("every key idle, from 5 if it was busy before").isEmpty();
  }
}
