package io.signalbox.controlplane.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over generated sequences of endpoint changes, drains, removals, NACKs and operator rollbacks —
 * run through the real translator, quarantine and snapshot builder — epochs never regress, and no
 * removed endpoint is ever offered again, nor a draining one offered as healthy.
 */
class RollbackPropertiesTest {

  sealed interface Op {}

  record Add(int cluster, int port) implements Op {}

  record Drain(int cluster, int port) implements Op {}

  record Remove(int cluster, int port) implements Op {}

  /** Clients NACK the newest epoch's assignment of this cluster. */
  record Nack(int cluster) implements Op {}

  /** An operator rolls back to the epoch this many epochs ago. */
  record Rollback(int back) implements Op {}

  @Provide
  Arbitrary<List<Op>> histories() {
    Arbitrary<Integer> cluster = Arbitraries.integers().between(0, 2);
    Arbitrary<Integer> port = Arbitraries.integers().between(1, 6);
    Arbitrary<Op> op = Arbitraries.oneOf(
        net.jqwik.api.Combinators.combine(cluster, port).as(Add::new),
        net.jqwik.api.Combinators.combine(cluster, port).as(Drain::new),
        net.jqwik.api.Combinators.combine(cluster, port).as(Remove::new),
        cluster.map(Nack::new),
        Arbitraries.integers().between(1, 4).map(Rollback::new));
    return op.list().ofMinSize(1).ofMaxSize(40);
  }

  @Property(tries = 300, seed = "4242")
  void epochsNeverRegressAndNothingRemovedOrDrainedIsOfferedAgain(@ForAll("histories") List<Op> ops) {
    Map<String, Map<Integer, EndpointState>> endpoints = new TreeMap<>();
    for (int c = 0; c < 3; c++) {
      Map<Integer, EndpointState> eps = new TreeMap<>();
      eps.put(1, EndpointState.READY);
      endpoints.put("c" + c, eps);
    }
    IncrementalTranslator translator = new IncrementalTranslator();
    SnapshotBuilder builder = new SnapshotBuilder();
    Map<Quarantine.Key, Quarantine.Entry> quarantine = new HashMap<>();
    Map<Long, Snapshot> history = new HashMap<>();
    List<Snapshot> published = new ArrayList<>();
    long nextEpoch = 1;

    for (Op op : ops) {
      Snapshot last = published.isEmpty() ? null : published.get(published.size() - 1);
      if (op instanceof Add a) {
        endpoints.get("c" + a.cluster()).put(a.port(), EndpointState.READY);
      } else if (op instanceof Drain d) {
        endpoints.get("c" + d.cluster()).computeIfPresent(d.port(), (p, st) -> EndpointState.DRAINING);
      } else if (op instanceof Remove r) {
        endpoints.get("c" + r.cluster()).remove(r.port());
      } else if (op instanceof Nack n) {
        if (last != null && published.size() > 1) {
          XdsResource rejected = last.resources(XdsType.ENDPOINT).get("c" + n.cluster());
          quarantine.put(new Quarantine.Key(XdsType.ENDPOINT, rejected.name()), new Quarantine.Entry(
              rejected.version(), published.get(published.size() - 2).epoch(), "nack", "test", Instant.EPOCH));
        }
      } else if (op instanceof Rollback rb) {
        if (last != null && published.size() > rb.back()) {
          Snapshot target = published.get(published.size() - 1 - rb.back());
          for (XdsResource r : last.resources(XdsType.ENDPOINT).byName().values()) {
            XdsResource old = target.resources(XdsType.ENDPOINT).get(r.name());
            if (old != null && !old.version().equals(r.version())) {
              quarantine.put(new Quarantine.Key(XdsType.ENDPOINT, r.name()),
                  new Quarantine.Entry(r.version(), target.epoch(), "rollback", "test", Instant.EPOCH));
            }
          }
        }
      }
      DesiredState desired = desired(endpoints);
      Quarantine.Applied applied = Quarantine.apply(quarantine, translator.translate(desired), desired, history::get);
      applied.lifted().forEach((key, version) -> quarantine.remove(key));
      List<TranslatedResource> translated = applied.resources();
      var candidate = builder.candidate(translated, desired.endpoints(), last, Provenance.getDefaultInstance());
      if (candidate.sameContentAs(last)) {
        continue;
      }
      Snapshot s = candidate.seal(nextEpoch++, Instant.EPOCH);
      assertThat(last == null || s.epoch() > last.epoch()).isTrue();
      history.put(s.epoch(), s);
      published.add(s);
      assertNothingResurrected(s, endpoints);
    }
  }

  private static void assertNothingResurrected(Snapshot s, Map<String, Map<Integer, EndpointState>> endpoints) {
    for (XdsResource r : s.resources(XdsType.ENDPOINT).byName().values()) {
      ClusterLoadAssignment cla = r.content(ClusterLoadAssignment.class);
      Map<Integer, EndpointState> now = endpoints.get(r.name());
      for (var locality : cla.getEndpointsList()) {
        for (LbEndpoint lb : locality.getLbEndpointsList()) {
          int port = lb.getEndpoint().getAddress().getSocketAddress().getPortValue();
          EndpointState state = now.get(port);
          assertThat(state).as("epoch %d offers removed endpoint %s:%d", s.epoch(), r.name(), port).isNotNull();
          if (state == EndpointState.DRAINING) {
            assertThat(lb.getHealthStatus()).as("epoch %d offers draining %s:%d", s.epoch(), r.name(), port)
                .isEqualTo(HealthStatus.DRAINING);
          }
        }
      }
    }
  }

  private static DesiredState desired(Map<String, Map<Integer, EndpointState>> endpoints) {
    Map<String, List<EndpointSpec>> eps = new TreeMap<>();
    List<ClusterSpec> clusters = new ArrayList<>();
    endpoints.forEach((cluster, ports) -> {
      clusters.add(ClusterSpec.named(cluster));
      List<EndpointSpec> list = new ArrayList<>();
      ports.forEach((port, state) -> list.add(new EndpointSpec("10.0.0.1", port, "a", 1, 0, state, "test")));
      eps.put(cluster, list);
    });
    return new DesiredState("test", List.of(), List.of(), clusters, eps);
  }
}
