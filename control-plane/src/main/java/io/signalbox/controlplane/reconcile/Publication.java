package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.xds.XdsServer;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.store.EpochLog;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this process serves, and the bookkeeping that follows: the newest epoch it published (or,
 * following the leader, the newest committed one), recent snapshots, the drains they carry, and
 * the store work after each publish ({@link AfterPublish}). Changed on the writer's thread only, so
 * one thread publishes to the xDS server; read from anywhere.
 */
final class Publication implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Publication.class);

  private final XdsServer xds;
  private final SnapshotStore store;
  private final boolean staged;
  private final EpochHistory history;
  private final DrainTracker drains;
  private final Retention retention;
  private final AfterPublish afterPublish;
  private volatile Snapshot current;

  /**
   * @param staged release new epochs to the first rollout wave only (canary waves)
   * @param retained what retention keeps whatever its age
   */
  Publication(XdsServer xds, SnapshotStore store, boolean staged, Supplier<Set<Long>> retained) {
    this.xds = xds;
    this.store = store;
    this.staged = staged;
    this.history = new EpochHistory(store);
    this.drains = new DrainTracker(xds);
    this.retention = new Retention(store);
    this.afterPublish = new AfterPublish(store, retention, retained);
  }

  /** {@code store.retainEpochs}: how many of the newest epochs the log keeps. */
  void retainEpochs(int keep) {
    retention.retainEpochs(keep);
  }

  /** The newest epoch served, or null before the first. */
  Snapshot current() {
    return current;
  }

  long epoch() {
    Snapshot s = current;
    return s == null ? 0 : s.epoch();
  }

  /** A published epoch's snapshot, from memory or the store; null if unknown or unreachable. */
  Snapshot snapshot(long epoch) {
    return history.get(epoch);
  }

  /** At start: the newest stored epoch, served before any source has synced. */
  void restored(Snapshot stored) {
    remember(stored);
    xds.publish(stored);
    afterPublish.restored(stored);
  }

  /** An epoch this process built and appended. */
  void published(Snapshot parent, Snapshot snapshot, Map<EndpointRef, String> causes, Instant at) {
    if (staged) {
      xds.release(0, snapshot);
      recordRelease(store, 0, snapshot.epoch());
    } else {
      xds.publish(snapshot);
    }
    remember(snapshot);
    afterPublish.published(parent, snapshot, causes, at);
  }

  /** Following: what the leader committed, never moving back. */
  void served(WriterRole.Committed c) {
    if (c.waves().isEmpty()) {
      Snapshot there = xds.current();
      if (there == null || c.newest().epoch() > there.epoch()) {
        xds.publish(c.newest());
      }
    } else {
      c.waves().forEach((wave, s) -> {
        Snapshot there = xds.releasedTo(wave);
        if (there == null || s.epoch() > there.epoch()) {
          xds.release(wave, s);
        }
      });
    }
    Snapshot p = current;
    if (p == null || c.newest().epoch() > p.epoch()) {
      remember(c.newest());
    }
  }

  /** Taking the lead: serve the newest committed epoch and catch up on its bookkeeping. */
  void tookOver(Snapshot latest) {
    served(new WriterRole.Committed(latest, Map.of()));
    afterPublish.restored(latest);
  }

  private void remember(Snapshot s) {
    current = s;
    history.remember(s);
    drains.note(s);
  }

  /** The first epoch of {@code endpoint}'s current run of DRAINING epochs, or null. */
  Long drainingSince(EndpointRef endpoint) {
    return drains.drainingSince(endpoint);
  }

  Map<EndpointRef, Long> drainingSince() {
    return drains.drainingSinceAll();
  }

  /**
   * The DRAINING endpoints every client holding their cluster has ACKed (in an epoch in which they
   * were DRAINING), as of now: a build takes this once, so its epoch does not depend on ACKs that
   * arrive while it builds.
   */
  Set<EndpointRef> drainsAcknowledged() {
    Set<EndpointRef> acked = new java.util.HashSet<>();
    drains.drainingSinceAll().keySet().forEach(ref -> {
      if (drains.acknowledged(ref)) {
        acked.add(ref);
      }
    });
    return acked;
  }

  long afterPublishBacklog() {
    return afterPublish.backlog();
  }

  /**
   * Stores that a canary wave serves {@code epoch}, for the followers: best effort, since the
   * wave is already served here and a later release carries the newer epoch.
   */
  static void recordRelease(EpochLog store, int wave, long epoch) {
    try {
      store.release(wave, epoch);
    } catch (StoreUnavailableException e) {
      log.warn("could not record that wave {} serves epoch {} (followers keep the earlier one): {}", wave, epoch,
          e.getMessage());
    }
  }

  /** The epochs published so far get their audit entries and statuses before the store closes. */
  @Override
  public void close() {
    afterPublish.close();
  }
}
