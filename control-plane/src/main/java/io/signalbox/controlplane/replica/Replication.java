package io.signalbox.controlplane.replica;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.config.HaSettings;
import io.signalbox.controlplane.reconcile.HeldUpdates;
import io.signalbox.controlplane.reconcile.Interventions;
import io.signalbox.controlplane.reconcile.PublishedView;
import io.signalbox.controlplane.reconcile.Reconciler;
import io.signalbox.controlplane.reconcile.WriterRole;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.xds.Waves;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.store.ReplicaRecord;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps a replica in step with the others through the store, on one thread: a follower serves
 * the epochs (and wave releases) the leader committed; every replica re-reads the operator intent
 * when another one changed it, and sends its heartbeat; the leader's heartbeat carries what only
 * it computes (held updates, per-group last safe), which followers show. It runs on a
 * {@code LISTEN} hint from the store and polls every {@value #POLL_MS} ms as well, since
 * notifications sent while the listener reconnects are lost.
 */
public final class Replication implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Replication.class);
  static final long POLL_MS = 500;
  /** Epochs after the one served that a follower applies as deltas; more are read as the newest, whole. */
  static final int FOLLOW_BATCH = 16;
  private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());

  /** What only the leader computes, as its heartbeat carries it to the followers. */
  public record LeaderView(List<HeldUpdates.Held> held, Map<String, String> heldFingerprints,
      Map<String, Long> lastSafeByGroup) {
    public LeaderView {
      held = held == null ? List.of() : List.copyOf(held);
      heldFingerprints = heldFingerprints == null ? Map.of() : Map.copyOf(heldFingerprints);
      lastSafeByGroup = lastSafeByGroup == null ? Map.of() : Map.copyOf(lastSafeByGroup);
    }

    static final LeaderView NONE = new LeaderView(null, null, null);
  }

  private final SnapshotStore store;
  private final Reconciler reconciler;
  private final Role role;
  private final Interventions interventions;
  private final XdsServer localXds;
  private final Waves waves;
  private final HaSettings ha;
  private final Election election;
  private final Instant startedAt;
  private final ScheduledExecutorService thread;
  private final AtomicBoolean queued = new AtomicBoolean();
  private AutoCloseable listening;

  // Written on the replication thread; read by the API and readiness.
  private volatile long lastCommitted = -1;
  private volatile List<ReplicaRecord> replicas = List.of();
  private volatile boolean everRead;
  private volatile LeaderView leaderView = LeaderView.NONE;
  // Snapshots loaded for wave releases, by epoch; replication thread only.
  private final Map<Long, Snapshot> loaded = new HashMap<>();

  public Replication(SnapshotStore store, Reconciler reconciler, Role role, XdsServer localXds, Waves waves,
      HaSettings ha, Election election, Instant startedAt) {
    this.store = store;
    this.reconciler = reconciler;
    this.role = role;
    this.interventions = reconciler.interventions();
    this.localXds = localXds;
    this.waves = waves;
    this.ha = ha;
    this.election = election;
    this.startedAt = startedAt;
    this.thread = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setNameFormat("replication").setDaemon(true).build());
  }

  public Replication start() {
    listening = store.listen(this::wake);
    thread.scheduleWithFixedDelay(this::sync, 0, POLL_MS, TimeUnit.MILLISECONDS);
    thread.scheduleWithFixedDelay(this::heartbeat, 0, ha.renewInterval().toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** The store says something changed: look soon, once however many notifications arrive. */
  private void wake() {
    if (queued.compareAndSet(false, true)) {
      thread.execute(() -> {
        queued.set(false);
        sync();
      });
    }
  }

  /** Whether this replica serves the newest committed epoch (a follower is ready only then). */
  public boolean caughtUp() {
    Snapshot served = reconciler.published();
    long committed = lastCommitted;
    return committed >= 0 && (served == null ? committed == 0 : served.epoch() >= committed);
  }

  /** The newest committed epoch as last read, or -1 before the first read. */
  public long lastCommitted() {
    return lastCommitted;
  }

  /** Every replica's last heartbeat, most recent first. */
  public List<ReplicaRecord> replicas() {
    return replicas;
  }

  /**
   * The other replicas whose heartbeat is recent: within the lease and two renewals of the newest.
   * Read from the store on the first call (the client recorder asks before leaving their clients
   * connected), from the last sync after.
   */
  public Set<String> otherLiveReplicas() {
    List<ReplicaRecord> all = replicas;
    if (!everRead) {
      all = store.leadership().replicas();
    }
    return otherLive(all, ha);
  }

  /**
   * The replicas other than {@code ha}'s whose heartbeat in {@code all} (most recent first) is
   * within the lease and two renewals of the newest: measured from the newest heartbeat, not this
   * process's clock, so a replica's own clock skew does not decide who is alive.
   */
  static Set<String> otherLive(List<ReplicaRecord> all, HaSettings ha) {
    Set<String> live = new HashSet<>();
    if (all.isEmpty()) {
      return live;
    }
    Instant newest = all.get(0).lastSeen();
    Instant cutoff = newest.minus(ha.leaseDuration()).minus(ha.renewInterval().multipliedBy(2));
    for (ReplicaRecord r : all) {
      if (!r.replicaId().equals(ha.replicaId()) && !r.lastSeen().isBefore(cutoff)) {
        live.add(r.replicaId());
      }
    }
    return live;
  }

  /** {@code view} with what the leader computes, when this replica follows. */
  public PublishedView withLeader(PublishedView view) {
    if (role.leading()) {
      return view;
    }
    LeaderView l = leaderView;
    return new PublishedView(view.snapshot(), view.status(), l.held(), l.heldFingerprints(), view.intent(),
        l.lastSafeByGroup(), view.drainingSince(), view.clusterSpecs(), view.serializations());
  }

  private void sync() {
    try {
      if (role.leading()) {
        lastCommitted = store.lastEpoch();
      } else {
        // First: a follower's clients wait for this, not for the reads below.
        follow();
      }
      role.storeReachable();
      long revision = store.intent().revision();
      if (revision != interventions.revisionRead() && interventions.load() && role.leading()) {
        reconciler.poke("operator intent changed on another replica");
      }
      List<ReplicaRecord> all = store.leadership().replicas();
      replicas = all;
      everRead = true;
      leaderView = leaderView(all, ha.replicaId());
    } catch (StoreUnavailableException e) {
      log.debug("replication: store unavailable: {}", e.getMessage());
      role.storeUnreachable(e);
    } catch (RuntimeException e) {
      log.error("replication failed; will retry", e);
    }
  }

  /**
   * Hands the writer the newest committed epoch and the releases, if anything is newer. The epochs
   * after the one served are read as stored, in one query, and applied to it: after a one-endpoint
   * change that is one small delta, not the newest epoch rebuilt from its chain. Only when they do
   * not chain on it (a new chain after a takeover, a race, a follower far behind) is the newest
   * epoch read whole.
   */
  private void follow() {
    Snapshot served = reconciler.published();
    Snapshot newest = null;
    if (served != null) {
      List<SnapshotEnvelope> after = store.storedAfter(served.epoch(), FOLLOW_BATCH);
      newest = after.isEmpty() || after.size() == FOLLOW_BATCH ? null : applied(served, after);
    }
    long committed = newest != null ? newest.epoch() : store.lastEpoch();
    lastCommitted = committed;
    Map<Integer, Snapshot> released = Map.of();
    boolean newer = committed > 0 && (served == null || committed > served.epoch());
    if (waves.count() > 1) {
      Map<Integer, Snapshot> byWave = new HashMap<>();
      for (var e : store.releases().entrySet()) {
        Snapshot there = localXds.releasedTo(e.getKey());
        if (there == null || e.getValue() > there.epoch()) {
          byWave.put(e.getKey(), load(e.getValue()));
          newer = true;
        }
      }
      byWave.values().removeIf(s -> s == null);
      released = byWave;
    }
    if (!newer) {
      return;
    }
    if (newest == null) {
      // Built on what this replica serves when that is the parent: its clients look only at what changed.
      newest = store.latest().map(e -> Snapshot.fromEnvelope(e, served)).orElse(null);
    }
    if (newest != null) {
      role.follow(new WriterRole.Committed(newest, released));
    }
    loaded.keySet().removeIf(epoch -> served != null && epoch < served.epoch() - 100);
  }

  /** {@code stored} applied one after the other to {@code served}, or null if they do not chain on it. */
  static Snapshot applied(Snapshot served, List<SnapshotEnvelope> stored) {
    Snapshot s = served;
    for (SnapshotEnvelope e : stored) {
      if (!e.getDelta() || e.getParentEpoch() != s.epoch()) {
        return null;
      }
      s = Snapshot.fromDelta(e, s);
    }
    return s;
  }

  private Snapshot load(long epoch) {
    return loaded.computeIfAbsent(epoch, e -> store.load(e).map(Snapshot::fromEnvelope).orElse(null));
  }

  /** What the leader's heartbeat in {@code all} carries, unless this replica ({@code self}) leads. */
  static LeaderView leaderView(List<ReplicaRecord> all, String self) {
    for (ReplicaRecord r : all) {
      if (r.role().equals("leader") && !r.leaderView().isEmpty() && !r.replicaId().equals(self)) {
        try {
          return JSON.readValue(r.leaderView(), LeaderView.class);
        } catch (java.io.IOException e) {
          log.warn("unreadable leader view from replica {}: {}", r.replicaId(), e.getMessage());
        }
      }
    }
    return LeaderView.NONE;
  }

  private void heartbeat() {
    try {
      boolean leading = role.leading();
      String view = "";
      if (leading) {
        PublishedView v = reconciler.view();
        view = JSON.writeValueAsString(new LeaderView(v.held(), v.heldFingerprints(), v.lastSafeByGroup()));
      }
      Snapshot served = reconciler.published();
      store.leadership().heartbeat(new ReplicaRecord(ha.replicaId(), leading ? "leader" : "follower",
          served == null ? 0 : served.epoch(), localXds.clients().size(), startedAt, null, view));
    } catch (StoreUnavailableException e) {
      log.debug("heartbeat: store unavailable: {}", e.getMessage());
    } catch (java.io.IOException | RuntimeException e) {
      log.error("heartbeat failed; will retry", e);
    }
  }

  /** This replica's part, for the status API: role, leader, term, whether it is caught up. */
  public ReplicaStatus status() {
    var lease = election.lease();
    return new ReplicaStatus(ha.replicaId(), role.leading() ? "leader" : "follower",
        lease == null ? null : lease.leaderId(), lease == null ? 0 : lease.term(), caughtUp(),
        replicas.stream().map(r -> new ReplicaStatus.Replica(r.replicaId(), r.role(), r.epoch(), r.clients(),
            r.lastSeen())).toList());
  }

  @Override
  public void close() {
    try {
      if (listening != null) {
        listening.close();
      }
    } catch (Exception e) {
      log.debug("closing the store listener: {}", e.getMessage());
    }
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
