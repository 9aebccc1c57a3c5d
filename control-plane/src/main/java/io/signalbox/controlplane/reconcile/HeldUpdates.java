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

  /**
   * One held update, for the status API: of a cluster's endpoints, or of the whole config.
   *
   * @param cluster the cluster whose update is held; null for a config reload
   * @param config the config file whose reload is held ({@code signalbox confirm --config}); null
   *     for a cluster
   */
  public record Held(String cluster, String rule, String message, Instant since, String config) {
    public Held(String cluster, String rule, String message, Instant since) {
      this(cluster, rule, message, since, null);
    }

    /** What lets it through, as commands to run: {@code status.holds} and {@code signalbox plan} say it alike. */
    public String release() {
      return cluster == null ? "'signalbox confirm --config' applies the reload as written; or restore the file"
          : "'signalbox confirm " + cluster + "' lets it through" + byItself();
    }

    /** What releases it without an operator, where something can ({@code , or ...}), else empty. */
    public String byItself() {
      return switch (rule) {
        case Guards.MIN_ELIGIBLE -> ", or another endpoint of " + cluster + " becoming eligible";
        case Guards.MASS_REMOVAL -> ", or the update staying the same for reconcile.holdStable";
        default -> "";
      };
    }
  }

  private record Pending(String fingerprint, Held held) {}

  private final Map<String, Pending> held = new ConcurrentHashMap<>();
  private final GuardChecks guards = new GuardChecks();
  private volatile Duration stableFor;

  HeldUpdates(Duration stableFor) {
    this.stableFor = stableFor;
  }

  void stableFor(Duration d) {
    stableFor = d;
  }

  Duration stableFor() {
    return stableFor;
  }

  List<Held> held() {
    return held.values().stream().map(Pending::held).toList();
  }

  /**
   * The fingerprint of the update of {@code cluster} held now, or null if none is: what an
   * operator's confirmation lets through (see {@link Interventions#confirm}).
   */
  String fingerprintOf(String cluster) {
    Pending p = held.get(cluster);
    return p == null ? null : p.fingerprint();
  }

  /**
   * The same for the same endpoint list in every process: a confirmation is stored and must still
   * match after a restart, so not {@code hashCode()} (an enum's is its identity).
   */
  static String fingerprint(List<EndpointSpec> endpoints) {
    java.security.MessageDigest sha;
    try {
      sha = java.security.MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    for (EndpointSpec e : endpoints) {
      sha.update(e.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      sha.update((byte) '\n');
    }
    return java.util.HexFormat.of().formatHex(sha.digest(), 0, 16);
  }

  /**
   * @param stale confirmed clusters that hold nothing any more: their confirmations are spent
   */
  record Outcome(Map<String, List<EndpointSpec>> endpoints, Instant nextChange, Set<String> stale) {}

  /**
   * On the reconciler's thread: {@code endpoints} with held clusters replaced by what clients hold.
   *
   * @param confirmed cluster -> the fingerprint of the held update an operator let through
   */
  Outcome apply(Snapshot published, Map<String, List<EndpointSpec>> endpoints, List<OperatorOverride> overrides,
      Map<String, String> confirmed, ClusterSpecs clusters, Instant now) {
    if (published == null) {
      return new Outcome(endpoints, null, Set.of());
    }
    Map<String, Set<String>> intended = new HashMap<>();
    overrides.stream().filter(o -> !(o instanceof OperatorOverride.Weight))
        .forEach(o -> intended.computeIfAbsent(o.endpoint().cluster(), c -> new HashSet<>())
            .add(o.endpoint().cluster() + "/" + o.endpoint().key()));
    List<Guards.Hold> holds = guards.check(published.endpoints(), endpoints, clusters, intended);
    if (holds.isEmpty() && held.isEmpty() && confirmed.isEmpty()) {
      return new Outcome(endpoints, null, Set.of());
    }
    Map<String, List<EndpointSpec>> out = new TreeMap<>(endpoints);
    Set<String> stillHeld = new HashSet<>();
    Instant next = null;
    for (Guards.Hold hold : holds) {
      String cluster = hold.cluster();
      String fingerprint = fingerprint(endpoints.getOrDefault(cluster, List.of()));
      if (fingerprint.equals(confirmed.get(cluster))) {
        continue;
      }
      Pending p = held.get(cluster);
      if (p == null || !p.fingerprint().equals(fingerprint)) {
        p = new Pending(fingerprint, new Held(cluster, hold.rule(), hold.message(), now));
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
    Set<String> stale = new HashSet<>();
    for (String c : confirmed.keySet()) {
      if (!stillHeld.contains(c) && holds.stream().noneMatch(h -> h.cluster().equals(c))) {
        stale.add(c);
      }
    }
    return new Outcome(out, next, stale);
  }
}
