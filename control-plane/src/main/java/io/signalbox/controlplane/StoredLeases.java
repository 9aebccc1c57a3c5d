package io.signalbox.controlplane;

import io.signalbox.source.registry.Lease;
import io.signalbox.source.registry.Leases;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredLease;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/** The registry's leases in the snapshot store, so endpoint-sources needs no database. */
final class StoredLeases implements Leases {

  private final LeaseStore store;

  StoredLeases(LeaseStore store) {
    this.store = store;
  }

  @Override
  public List<Lease> all() {
    return call(() -> store.all().stream().map(StoredLeases::toLease).toList());
  }

  @Override
  public Lease put(Lease l) {
    return call(() -> toLease(store.put(new StoredLease(l.cluster(), l.address(), l.port(), l.zone(), l.weight(),
        l.metadata(), l.registeredBy(), l.createdAt(), l.expiresAt()))));
  }

  @Override
  public boolean remove(String cluster, String address, int port) {
    return call(() -> store.remove(cluster, address, port));
  }

  @Override
  public List<Lease> expire(Instant now) {
    return call(() -> store.expire(now).stream().map(StoredLeases::toLease).toList());
  }

  private static Lease toLease(StoredLease s) {
    return new Lease(s.cluster(), s.address(), s.port(), s.zone(), s.weight(), s.metadata(), s.registeredBy(),
        s.createdAt(), s.expiresAt());
  }

  private static <T> T call(Supplier<T> work) {
    try {
      return work.get();
    } catch (StoreUnavailableException e) {
      throw new Leases.Unavailable(e.getMessage(), e);
    }
  }
}
