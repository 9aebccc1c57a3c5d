package io.signalbox.controlplane;

import io.signalbox.source.registry.Lease;
import io.signalbox.source.registry.Leases;
import io.signalbox.source.registry.Naming;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredLease;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/** The registry's leases in the snapshot store, so endpoint-sources needs no database. */
final class StoredLeases implements Leases {

  private final LeaseStore store;
  private final java.util.function.BooleanSupplier mayExpire;
  private final java.time.Clock clock;

  /**
   * @param mayExpire whether this process deletes expired leases: among replicas only the leader
   *     does; a follower's sweep only re-reads, leaving out what has expired, so the state it would
   *     build from on taking over never holds an endpoint whose lease ran out
   */
  StoredLeases(LeaseStore store, java.util.function.BooleanSupplier mayExpire, java.time.Clock clock) {
    this.store = store;
    this.mayExpire = mayExpire;
    this.clock = clock;
  }

  @Override
  public List<Lease> all() {
    if (!mayExpire.getAsBoolean()) {
      Instant now = clock.instant();
      return call(() -> store.all().stream().filter(l -> l.expiresAt().isAfter(now)).map(StoredLeases::toLease)
          .toList());
    }
    return call(() -> store.all().stream().map(StoredLeases::toLease).toList());
  }

  @Override
  public Lease put(Lease l) {
    return call(() -> toLease(store.put(new StoredLease(l.cluster(), l.address(), l.port(), l.zone(), l.weight(),
        l.metadata(), l.registeredBy(), l.createdAt(), l.expiresAt(), l.capacityRps(),
        new StoredLease.Naming(l.naming().hostname(), l.naming().hashKey(), l.naming().additionalAddresses())))));
  }

  @Override
  public boolean remove(String cluster, String address, int port) {
    return call(() -> store.remove(cluster, address, port));
  }

  @Override
  public List<Lease> expire(Instant now) {
    if (!mayExpire.getAsBoolean()) {
      return List.of();
    }
    return call(() -> store.expire(now).stream().map(StoredLeases::toLease).toList());
  }

  private static Lease toLease(StoredLease s) {
    return new Lease(s.cluster(), s.address(), s.port(), s.zone(), s.weight(), s.metadata(), s.registeredBy(),
        s.createdAt(), s.expiresAt(), s.capacityRps(),
        new Naming(s.naming().hostname(), s.naming().hashKey(), s.naming().additionalAddresses()));
  }

  private static <T> T call(Supplier<T> work) {
    try {
      return work.get();
    } catch (StoreUnavailableException e) {
      throw new Leases.Unavailable(e.getMessage(), e);
    }
  }
}
