package io.signalbox.controlplane;

import io.signalbox.source.registry.Lease;
import io.signalbox.source.registry.Leases;
import io.signalbox.source.registry.Registration;
import io.signalbox.validation.AdmissionRules;
import io.signalbox.store.LeaseStore;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StoredLease;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The registry's leases in the snapshot store, so endpoint-sources needs no database.
 *
 * <p>A lease's capacity is stored among its metadata under {@link #CAPACITY_KEY}, a key registrants
 * may not use ({@link Registration#RESERVED_METADATA_PREFIX}): the lease table has no column for it,
 * and this round's schema migrations are taken by other work (issue 31). Kept here, the store and
 * its table stay as they were, and a lease read back is the lease written.
 */
final class StoredLeases implements Leases {

  static final String CAPACITY_KEY = Registration.RESERVED_METADATA_PREFIX + "capacity-rps";

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
    Map<String, String> metadata = l.metadata();
    if (l.capacityRps() != null) {
      metadata = new TreeMap<>(metadata);
      metadata.put(CAPACITY_KEY, String.valueOf(l.capacityRps()));
    }
    Map<String, String> stored = metadata;
    return call(() -> toLease(store.put(new StoredLease(l.cluster(), l.address(), l.port(), l.zone(), l.weight(),
        stored, l.registeredBy(), l.createdAt(), l.expiresAt()))));
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
    Map<String, String> metadata = s.metadata();
    Integer capacityRps = null;
    String capacity = metadata.get(CAPACITY_KEY);
    if (capacity != null) {
      metadata = new TreeMap<>(metadata);
      metadata.remove(CAPACITY_KEY);
      // Written by put from a checked registration; a value that is not one is left out, not guessed.
      capacityRps = AdmissionRules.parseRps(capacity) instanceof AdmissionRules.Declared d ? d.rps() : null;
    }
    return new Lease(s.cluster(), s.address(), s.port(), s.zone(), s.weight(), metadata, s.registeredBy(),
        s.createdAt(), s.expiresAt(), capacityRps);
  }

  private static <T> T call(Supplier<T> work) {
    try {
      return work.get();
    } catch (StoreUnavailableException e) {
      throw new Leases.Unavailable(e.getMessage(), e);
    }
  }
}
