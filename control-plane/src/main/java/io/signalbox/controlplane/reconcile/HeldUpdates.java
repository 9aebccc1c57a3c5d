package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.OperatorOverride;
import io.signalbox.model.EndpointSpec;
import io.signalbox.validation.Guards;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster updates the guards hold back: a mass removal (or a source suddenly reporting nothing)
 * and a cluster about to lose its last eligible endpoints keep serving what clients hold, while the
 * rest of the epoch goes out. A mass removal is applied once it has stayed the same for
 * {@code stableFor}; either is applied at once when an operator confirms it.
 */
public final class HeldUpdates {

  private static final Logger log = LoggerFactory.getLogger(HeldUpdates.class);

  /** One held cluster update, for the status API. */
  public record Held(String cluster, String rule, String message, Instant since) {}

  private record Pending(int hash, Held held) {}

  private final Map<String, Pending> held = new ConcurrentHashMap<>();
  private final GuardChecks guards = new GuardChecks();
  private final Map<String, Integer> confirmed = new ConcurrentHashMap<>();
  private volatile Duration stableFor;

  HeldUpdates(Duration stableFor) {
    this.stableFor = stableFor;
  }

  void stableFor(Duration d) {
    stableFor = d;
  }

  List<Held> held() {
    return held.values().stream().map(Pending::held).toList();
  }

  /** Lets the currently held update of {@code cluster} through; false if none is held. */
  boolean confirm(String cluster) {
    Pending p = held.get(cluster);
    if (p == null) {
      return false;
    }
    confirmed.put(cluster, p.hash());
    return true;
  }

  record Outcome(Map<String, List<EndpointSpec>> endpoints, Instant nextChange) {}

  /** On the reconciler's thread: {@code endpoints} with held clusters replaced by what clients hold. */
  Outcome apply(Snapshot published, Map<String, List<EndpointSpec>> endpoints, List<OperatorOverride> overrides,
      ClusterSpecs clusters, Instant now) {
    if (published == null) {
      return new Outcome(endpoints, null);
    }
    Map<String, Set<String>> intended = new HashMap<>();
    overrides.stream().filter(o -> !(o instanceof OperatorOverride.Weight))
        .forEach(o -> intended.computeIfAbsent(o.endpoint().cluster(), c -> new HashSet<>())
            .add(o.endpoint().cluster() + "/" + o.endpoint().key()));
    List<Guards.Hold> holds = guards.check(published.endpoints(), endpoints, clusters, intended);
    if (holds.isEmpty() && held.isEmpty() && confirmed.isEmpty()) {
      return new Outcome(endpoints, null);
    }
    Map<String, List<EndpointSpec>> out = new TreeMap<>(endpoints);
    Set<String> stillHeld = new HashSet<>();
    Instant next = null;
    for (Guards.Hold hold : holds) {
      String cluster = hold.cluster();
      int hash = endpoints.getOrDefault(cluster, List.of()).hashCode();
      if (Integer.valueOf(hash).equals(confirmed.get(cluster))) {
        continue;
      }
      Pending p = held.get(cluster);
      if (p == null || p.hash() != hash) {
        p = new Pending(hash, new Held(cluster, hold.rule(), hold.message(), now));
        held.put(cluster, p);
        log.warn("holding the update of {}: {}", cluster, hold.message());
      }
      if (hold.rule().equals(Guards.MASS_REMOVAL)) {
        Instant due = p.held().since().plus(stableFor);
        if (!now.isBefore(due)) {
          log.warn("applying the held update of {}: unchanged for {}", cluster, stableFor);
          continue;
        }
        next = next == null || due.isBefore(next) ? due : next;
      }
      stillHeld.add(cluster);
      List<EndpointSpec> old = published.endpoints().get(cluster);
      if (old == null) {
        out.remove(cluster);
      } else {
        out.put(cluster, old);
      }
    }
    held.keySet().retainAll(stillHeld);
    confirmed.keySet().removeIf(c -> !stillHeld.contains(c) && holds.stream().noneMatch(h -> h.cluster().equals(c)));
    return new Outcome(out, next);
  }
}
