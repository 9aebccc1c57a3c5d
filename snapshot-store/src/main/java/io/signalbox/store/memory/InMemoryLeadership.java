package io.signalbox.store.memory;

import io.signalbox.store.Fence;
import io.signalbox.store.Leadership;
import io.signalbox.store.ReplicaRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The lease and heartbeats in the heap: the same rules as PostgreSQL's, by the store's clock. */
final class InMemoryLeadership implements Leadership {

  private final Clock clock;
  // Guards the fields below.
  private final Object lock = new Object();
  private Lease lease;
  private final Map<String, ReplicaRecord> replicas = new TreeMap<>();

  InMemoryLeadership(Clock clock) {
    this.clock = clock;
  }

  /** Whether {@code fence} holds the lease now; the caller holds the store's lock for the append. */
  boolean holds(Fence fence) {
    synchronized (lock) {
      return lease != null && lease.leaderId().equals(fence.replicaId()) && lease.term() == fence.term()
          && lease.expiresAt().isAfter(clock.instant());
    }
  }

  @Override
  public Lease acquire(String replicaId, Duration leaseDuration) {
    synchronized (lock) {
      Instant now = clock.instant();
      boolean live = lease != null && lease.expiresAt().isAfter(now);
      if (live && !lease.leaderId().equals(replicaId)) {
        return lease;
      }
      long term = lease == null ? 1 : live ? lease.term() : lease.term() + 1;
      lease = new Lease(replicaId, term, now.plus(leaseDuration));
      return lease;
    }
  }

  @Override
  public boolean renew(String replicaId, long term, Duration leaseDuration) {
    synchronized (lock) {
      Instant now = clock.instant();
      if (lease == null || !lease.leaderId().equals(replicaId) || lease.term() != term
          || !lease.expiresAt().isAfter(now)) {
        return false;
      }
      lease = new Lease(replicaId, term, now.plus(leaseDuration));
      return true;
    }
  }

  @Override
  public void release(String replicaId, long term) {
    synchronized (lock) {
      if (lease != null && lease.leaderId().equals(replicaId) && lease.term() == term) {
        lease = new Lease(replicaId, term, clock.instant());
      }
    }
  }

  @Override
  public Optional<Lease> current() {
    synchronized (lock) {
      return Optional.ofNullable(lease);
    }
  }

  @Override
  public void heartbeat(ReplicaRecord r) {
    synchronized (lock) {
      replicas.put(r.replicaId(), new ReplicaRecord(r.replicaId(), r.role(), r.epoch(), r.clients(), r.startedAt(),
          clock.instant(), r.leaderView()));
    }
  }

  @Override
  public List<ReplicaRecord> replicas() {
    synchronized (lock) {
      List<ReplicaRecord> out = new ArrayList<>(replicas.values());
      out.sort(Comparator.comparing(ReplicaRecord::lastSeen).reversed().thenComparing(ReplicaRecord::replicaId));
      return out;
    }
  }

  @Override
  public int forgetReplicas(Duration olderThan) {
    synchronized (lock) {
      Instant cutoff = clock.instant().minus(olderThan);
      int before = replicas.size();
      replicas.values().removeIf(r -> r.lastSeen().isBefore(cutoff));
      return before - replicas.size();
    }
  }
}
