package io.signalbox.controlplane.rollout;

import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.NackStatus;
import io.signalbox.controlplane.xds.TypeStatus;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
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
 * wave holds it fully ACKed for its bake time, rolls back an epoch a client NACKs (later waves
 * never see it), and marks the newest epoch the whole fleet holds with no NACK as SAFE.
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
  private final SnapshotStore store;
  private final ScheduledExecutorService timer;

  // Confined to the timer thread.
  private final Map<Integer, Instant> waveConvergedAt = new HashMap<>();
  private final Map<Integer, Long> waveConvergedEpoch = new HashMap<>();
  private long rejectedUpTo;
  private long safeCandidate;
  private Instant safeCandidateSince;
  private long markedSafe;

  public RolloutController(Clock clock, RolloutPolicy policy, Reconciler reconciler, XdsServer xds,
      SnapshotStore store) {
    this.clock = clock;
    this.policy = policy;
    this.reconciler = reconciler;
    this.xds = xds;
    this.store = store;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "rollout");
      t.setDaemon(true);
      return t;
    });
  }

  public void start(Duration interval) {
    timer.scheduleWithFixedDelay(() -> {
      try {
        tick();
      } catch (RuntimeException e) {
        log.error("rollout check failed; will retry", e);
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  void tick() {
    Snapshot newest = reconciler.published();
    if (newest == null) {
      return;
    }
    List<ClientStatus> clients = xds.clients();
    if (policy.rollbackOnNack() && rollBackIfNacked(newest, clients)) {
      return;
    }
    advanceWaves(newest, clients);
    trackSafe(clients);
    Map<String, Long> byGroup = new TreeMap<>();
    for (ClientStatus c : clients) {
      byGroup.merge(c.nodeCluster().isEmpty() ? "(none)" : c.nodeCluster(), c.epoch(), Math::min);
    }
    reconciler.interventions().lastSafeByGroup(byGroup);
  }

  /** A NACK of the newest epoch (by any client, in any wave) rejects it. */
  private boolean rollBackIfNacked(Snapshot newest, List<ClientStatus> clients) {
    if (newest.epoch() <= rejectedUpTo) {
      return false;
    }
    Map<XdsType, Map<String, String>> rejected = new EnumMap<>(XdsType.class);
    String reason = null;
    for (ClientStatus c : clients) {
      for (var e : c.types().entrySet()) {
        NackStatus nack = e.getValue().nack();
        if (nack != null && nack.snapshotEpoch() == newest.epoch()) {
          rejected.computeIfAbsent(XdsType.fromTypeUrl(e.getKey()), t -> new TreeMap<>()).putAll(nack.resources());
          if (reason == null) {
            reason = "node '" + c.nodeId() + "' NACKed " + XdsType.fromTypeUrl(e.getKey()) + ": " + nack.message();
          }
        }
      }
    }
    if (reason == null) {
      return false;
    }
    rejectedUpTo = newest.epoch();
    reconciler.interventions().rejectEpoch(newest.epoch(), rejected, reason);
    return true;
  }

  private void advanceWaves(Snapshot newest, List<ClientStatus> clients) {
    int waves = policy.waves().count();
    for (int wave = 0; wave + 1 < waves; wave++) {
      Snapshot here = xds.releasedTo(wave);
      if (here == null || here.epoch() <= rejectedUpTo && isRejected(here.epoch())) {
        return;
      }
      Snapshot next = xds.releasedTo(wave + 1);
      if (next != null && next.epoch() >= here.epoch()) {
        continue;
      }
      String waveName = policy.waves().name(wave);
      boolean converged = clients.stream().filter(c -> c.wave().equals(waveName))
          .allMatch(c -> c.epoch() >= here.epoch() && c.nackOf(here.epoch()) == null);
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
      return;
    }
  }

  private boolean isRejected(long epoch) {
    return epoch == rejectedUpTo;
  }

  /**
   * SAFE: released to every wave, held by every connected client for every type it holds, no NACK
   * of it, and all of that for the settle time.
   */
  private void trackSafe(List<ClientStatus> clients) {
    Snapshot everywhere = xds.releasedTo(policy.waves().count() - 1);
    if (everywhere == null || everywhere.epoch() <= markedSafe || everywhere.epoch() == rejectedUpTo) {
      return;
    }
    long epoch = everywhere.epoch();
    boolean held = clients.stream().allMatch(c -> c.epoch() >= epoch && c.nackOf(epoch) == null
        && c.types().values().stream().map(TypeStatus::nack).noneMatch(n -> n != null && n.snapshotEpoch() >= epoch));
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
    markedSafe = epoch;
    reconciler.interventions().lastSafe(epoch);
    try {
      store.setStatus(epoch, EpochStatus.SAFE, "held by " + clients.size() + " client(s) with no NACK");
    } catch (StoreUnavailableException e) {
      log.warn("could not mark epoch {} SAFE: {}", epoch, e.getMessage());
    }
    log.info("epoch {} is SAFE: held by {} client(s) with no NACK for {}", epoch, clients.size(), policy.settle());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
