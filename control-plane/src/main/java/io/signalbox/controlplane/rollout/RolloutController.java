package io.signalbox.controlplane.rollout;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.reconcile.Outcome;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.EpochLog;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the fleet converge on each epoch: moves an epoch from wave to wave once the previous
 * wave holds it for its bake time, rolls back what a client refuses (later waves never see it),
 * and marks the newest epoch the whole fleet holds with no standing NACK as SAFE. "Holds" is one
 * predicate everywhere, {@link ClientStatus#holds}: an offer adjusted around a NACK is not holding.
 *
 * <p>Runs on its own single thread, reading immutable client snapshots; every decision that
 * creates an epoch goes back through the reconciler.
 */
public final class RolloutController implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(RolloutController.class);

  private final Clock clock;
  private final RolloutPolicy policy;
  private final Reconciler reconciler;
  private final XdsServer xds;
  private final EpochLog store;
  private final ScheduledExecutorService timer;

  // Confined to the timer thread.
  private final Map<Integer, Instant> waveConvergedAt = new HashMap<>();
  private final Map<Integer, Long> waveConvergedEpoch = new HashMap<>();
  // Epochs that carried a refused version: never released further, never SAFE. Those below the
  // last safe epoch are forgotten.
  private final java.util.NavigableSet<Long> rejected = new java.util.TreeSet<>();
  // Refused versions whose rollback is stored: each is acted on once.
  private final java.util.Set<Refusal> rolledBack = new java.util.HashSet<>();
  private long safeCandidate;
  private Instant safeCandidateSince;
  private long lastSafe;
  /** The epoch whose SAFE mark the store refused, already warned about: one WARN per outage, not per tick. */
  private long unmarked;

  private record Refusal(XdsType type, String name, String version) {}

  public RolloutController(Clock clock, RolloutPolicy policy, Reconciler reconciler, XdsServer xds,
      EpochLog store) {
    this.clock = clock;
    this.policy = policy;
    this.reconciler = reconciler;
    this.xds = xds;
    this.store = store;
    this.timer = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("rollout").setDaemon(true).build());
  }

  public void start(Duration interval) {
    timer.scheduleWithFixedDelay(() -> {
      try {
        check();
      } catch (RuntimeException e) {
        log.error("rollout check failed; will retry", e);
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * One check of the fleet against the published epochs: roll back what clients refuse, move
   * waves on, mark SAFE. The timer runs it every {@code rollout.checkInterval}; on its thread only,
   * or (tests) with the timer effectively off.
   */
  public void check() {
    Snapshot newest = reconciler.published();
    if (newest == null || !reconciler.leading()) {
      // Among replicas only the leader rolls back, moves waves on and marks SAFE.
      safeCandidate = 0;
      return;
    }
    // The store's last SAFE epoch, read with the intent: also right after a restart.
    lastSafe = Math.max(lastSafe, reconciler.interventions().lastSafeEpoch());
    List<ClientStatus> clients = xds.clients();
    if (policy.rollbackOnNack()) {
      rollBackRefused(clients);
    }
    advanceWaves(clients);
    trackSafe(clients);
    if (clients != lastByGroupOf) {
      // The list is the same instance until some client's status changes (XdsServer#clients).
      Map<String, Long> byGroup = new TreeMap<>();
      for (ClientStatus c : clients) {
        byGroup.merge(c.nodeCluster().isEmpty() ? "(none)" : c.nodeCluster(), c.epoch(), Math::min);
      }
      reconciler.interventions().lastSafeByGroup(byGroup);
      lastByGroupOf = clients;
    }
  }

  // The client list the last per-group epochs were computed from.
  private List<ClientStatus> lastByGroupOf;

  /**
   * Any standing NACK of a version newer than the last safe epoch rolls back: not only a NACK of the
   * newest epoch. An epoch published on top of a refused one (an unrelated change that came before
   * this check) carries the refused version too; every epoch that does becomes REJECTED, and the
   * refused resources are restored from the last safe epoch. A version the last safe epoch itself
   * has is left alone (rolling back cannot help a client that refuses what was safe), and so is one
   * whose rollback was already asked for.
   */
  private void rollBackRefused(List<ClientStatus> clients) {
    Snapshot safe = lastSafe == 0 ? null : reconciler.snapshot(lastSafe);
    Map<XdsType, Map<String, String>> refused = new EnumMap<>(XdsType.class);
    long first = Long.MAX_VALUE;
    long last = 0;
    String reason = null;
    for (ClientStatus c : clients) {
      for (var t : c.types().entrySet()) {
        if (t.getValue().refusing().isEmpty()) {
          // The usual case, several times a second for every client: no type lookup, no iterator.
          continue;
        }
        XdsType type = XdsType.fromTypeUrl(t.getKey());
        for (var r : t.getValue().refusing().entrySet()) {
          Refusal refusal = new Refusal(type, r.getKey(), r.getValue());
          if (rolledBack.contains(refusal)) {
            continue;
          }
          XdsResource inSafe = safe == null ? null : safe.resources(type).get(r.getKey());
          if (inSafe != null && inSafe.version().equals(r.getValue())) {
            continue;
          }
          long[] carried = carriedBy(refusal);
          if (carried == null) {
            continue;
          }
          refused.computeIfAbsent(type, k -> new TreeMap<>()).put(r.getKey(), r.getValue());
          first = Math.min(first, carried[0]);
          last = Math.max(last, carried[1]);
          if (reason == null) {
            NackStatus nack = t.getValue().nack();
            reason = "node '" + c.nodeId() + "' NACKed " + type + " '" + r.getKey() + "'"
                + (nack == null ? "" : ": " + nack.message());
          }
        }
      }
    }
    if (reason == null) {
      return;
    }
    if (reconciler.interventions().rejectRefused(refused, first, last, reason) instanceof Outcome.Applied<Long>) {
      refused.forEach((type, names) -> names.forEach((name, version) ->
          rolledBack.add(new Refusal(type, name, version))));
      for (long e = first; e <= last; e++) {
        rejected.add(e);
      }
    }
  }

  /**
   * The first and the newest released epoch that carry the refused version, or null if none does
   * (the client is being offered something else already).
   */
  private long[] carriedBy(Refusal r) {
    long[] range = null;
    for (int wave = 0; wave < policy.waves().count(); wave++) {
      Snapshot s = xds.releasedTo(wave);
      XdsResource res = s == null ? null : s.resources(r.type()).get(r.name());
      if (res != null && res.version().equals(r.version())) {
        range = range == null ? new long[] {res.changedEpoch(), s.epoch()}
            : new long[] {Math.min(range[0], res.changedEpoch()), Math.max(range[1], s.epoch())};
      }
    }
    return range;
  }

  private void advanceWaves(List<ClientStatus> clients) {
    int waves = policy.waves().count();
    for (int wave = 0; wave + 1 < waves; wave++) {
      Snapshot here = xds.releasedTo(wave);
      if (here == null || rejected.contains(here.epoch())) {
        return;
      }
      Snapshot next = xds.releasedTo(wave + 1);
      if (next != null && next.epoch() >= here.epoch()) {
        continue;
      }
      String waveName = policy.waves().name(wave);
      boolean converged = clients.stream().filter(c -> c.wave().equals(waveName)).allMatch(c -> c.holds(here.epoch()));
      if (!converged) {
        waveConvergedEpoch.remove(wave);
        return;
      }
      if (!Long.valueOf(here.epoch()).equals(waveConvergedEpoch.get(wave))) {
        waveConvergedEpoch.put(wave, here.epoch());
        waveConvergedAt.put(wave, clock.instant());
      }
      Duration baked = Duration.between(waveConvergedAt.get(wave), clock.instant());
      if (baked.compareTo(policy.waves().bake(wave)) < 0) {
        return;
      }
      log.info("epoch {} baked {} in wave '{}'; releasing it to wave '{}'", here.epoch(), baked, waveName,
          policy.waves().name(wave + 1));
      xds.release(wave + 1, here);
      Reconciler.recordRelease(store, wave + 1, here.epoch());
      return;
    }
  }

  /**
   * SAFE: released to every wave, held (exactly: see {@link ClientStatus#holds}) by every connected
   * client with no standing NACK, never rejected, and all of that for the settle time.
   */
  private void trackSafe(List<ClientStatus> clients) {
    Snapshot everywhere = xds.releasedTo(policy.waves().count() - 1);
    if (everywhere == null || everywhere.epoch() <= lastSafe || rejected.contains(everywhere.epoch())) {
      return;
    }
    long epoch = everywhere.epoch();
    boolean held = clients.stream().allMatch(c -> c.holds(epoch));
    if (!held) {
      safeCandidate = 0;
      return;
    }
    if (safeCandidate != epoch) {
      safeCandidate = epoch;
      safeCandidateSince = clock.instant();
    }
    if (Duration.between(safeCandidateSince, clock.instant()).compareTo(policy.settle()) < 0) {
      return;
    }
    try {
      store.setStatus(epoch, EpochStatus.SAFE, "held by " + clients.size() + (clients.size() == 1 ? " client" : " clients")
          + " with no NACK");
    } catch (StoreUnavailableException e) {
      // Not SAFE until it is stored: a restart must not find an older last safe epoch than rollbacks used.
      if (unmarked != epoch) {
        log.warn("could not mark epoch {} SAFE (will retry): {}", epoch, e.getMessage());
        unmarked = epoch;
      } else {
        log.debug("could not mark epoch {} SAFE (will retry): {}", epoch, e.getMessage());
      }
      return;
    }
    lastSafe = epoch;
    reconciler.interventions().lastSafe(epoch);
    rejected.headSet(epoch).clear();
    log.info("epoch {} is SAFE: held by {} {} with no NACK for {}", epoch, clients.size(),
        clients.size() == 1 ? "client" : "clients", policy.settle());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
