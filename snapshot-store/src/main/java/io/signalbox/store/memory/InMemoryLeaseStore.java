package io.signalbox.store.memory;

import io.signalbox.store.LeaseStore;
import io.signalbox.store.StoredLease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Leases in the heap, for {@code store.url: memory}. */
final class InMemoryLeaseStore implements LeaseStore {

  // Guarded by itself.
  private final List<StoredLease> leases = new ArrayList<>();

  @Override
  public List<StoredLease> all() {
    synchronized (leases) {
      return leases.stream().sorted(StoredLease.ORDER).toList();
    }
  }

  @Override
  public StoredLease put(StoredLease lease) {
    synchronized (leases) {
      for (int i = 0; i < leases.size(); i++) {
        StoredLease old = leases.get(i);
        if (old.sameTarget(lease.cluster(), lease.address(), lease.port())) {
          StoredLease renewed = new StoredLease(lease.cluster(), lease.address(), lease.port(), lease.zone(),
              lease.weight(), lease.metadata(), lease.registeredBy(), old.createdAt(), lease.expiresAt(),
              lease.capacityRps(), lease.naming());
          leases.set(i, renewed);
          return renewed;
        }
      }
      leases.add(lease);
      return lease;
    }
  }

  @Override
  public boolean remove(String cluster, String address, int port) {
    synchronized (leases) {
      return leases.removeIf(l -> l.sameTarget(cluster, address, port));
    }
  }

  @Override
  public List<StoredLease> expire(Instant now) {
    synchronized (leases) {
      List<StoredLease> expired = leases.stream().filter(l -> !l.expiresAt().isAfter(now)).sorted(StoredLease.ORDER).toList();
      leases.removeAll(expired);
      return expired;
    }
  }
}
