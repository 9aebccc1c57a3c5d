package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a release costs: the streams subscribed to a name it changed, not the fleet. Every other
 * stream holds the new epoch all the same, as its status, convergence and the next change show.
 */
class ReleaseCostTest {

  private static final int CLIENTS = 1_000;
  private static final int CLUSTERS = 100;

  private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

  private final InProcessAds server = new InProcessAds(Clock.fixed(NOW, ZoneOffset.UTC));
  private final TestResources resources = new TestResources();

  private static String cluster(int i) {
    return String.format("c%02d", i);
  }

  /** Every cluster with one endpoint on port 1000 + i, but {@code changed} (cluster -> port). */
  private Snapshot publish(Map<Integer, Integer> changed) {
    List<Object> spec = new ArrayList<>();
    for (int i = 0; i < CLUSTERS; i++) {
      spec.add(cluster(i));
      spec.add(List.of(changed.getOrDefault(i, 1000 + i)));
    }
    Snapshot s = resources.with(spec.toArray());
    server.publish(s);
    return s;
  }

  @Test
  void aOneNameChangeVisitsOnlyItsSubscribersAndEveryOtherClientHoldsItAllTheSame() {
    Snapshot first = publish(Map.of());
    List<InProcessAds.Client> clients = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      InProcessAds.Client c = server.connect("node-" + i);
      c.subscribe(XdsType.ENDPOINT, List.of(cluster(i % CLUSTERS)));
      c.ack(XdsType.ENDPOINT);
      clients.add(c);
    }
    // One wildcard CDS subscriber: an endpoint change does not concern it either.
    clients.get(0).subscribe(XdsType.CLUSTER, List.of());
    clients.get(0).ack(XdsType.CLUSTER);
    assertThat(server.clients()).hasSize(CLIENTS).allMatch(c -> c.epoch() == first.epoch());

    long before = server.releaseVisits();
    Snapshot second = publish(Map.of(7, 2007));

    assertThat(server.releaseVisits() - before).as("streams visited by a one-name change").isEqualTo(CLIENTS / CLUSTERS);
    List<InProcessAds.Client> answered = clients.stream().filter(c -> !c.unanswered().isEmpty()).toList();
    assertThat(answered).hasSize(CLIENTS / CLUSTERS)
        .allMatch(c -> Integer.parseInt(c.nodeId().substring(5)) % CLUSTERS == 7);
    assertThat(server.clients()).filteredOn(c -> c.epoch() == second.epoch()).as("held without a visit")
        .hasSize(CLIENTS - CLIENTS / CLUSTERS)
        .allMatch(c -> c.lastConvergence().equals(java.time.Duration.between(second.createdAt(), NOW)));
    answered.forEach(c -> c.ack(XdsType.ENDPOINT));
    assertThat(server.clients()).allMatch(c -> c.epoch() == second.epoch() && c.holds(second.epoch()));

    before = server.releaseVisits();
    Snapshot third = publish(Map.of(7, 2007, 8, 2008));

    assertThat(server.releaseVisits() - before).as("the next change, carried from an unvisited epoch")
        .isEqualTo(CLIENTS / CLUSTERS);
    clients.stream().filter(c -> !c.unanswered().isEmpty()).forEach(c -> {
      assertThat(Integer.parseInt(c.nodeId().substring(5)) % CLUSTERS).isEqualTo(8);
      assertThat(c.unanswered().get(XdsType.ENDPOINT).getVersionInfo()).isEqualTo(Long.toString(third.epoch()));
      c.ack(XdsType.ENDPOINT);
    });
    assertThat(server.clients()).allMatch(c -> c.epoch() == third.epoch());
  }
}
