package io.signalbox.source.registry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Leases in a list, with a switch that makes every call fail as an unreachable store would, and one
 * that makes every call throw an Error.
 */
final class FakeLeases implements Leases {

  private static final Comparator<Lease> ORDER = Comparator.comparing(Lease::cluster)
      .thenComparing(Lease::address).thenComparingInt(Lease::port);

  // Guarded by this.
  private final List<Lease> leases = new ArrayList<>();
  private boolean down;
  private Error failure;

  synchronized void down(boolean down) {
    this.down = down;
  }

  /** Every call throws {@code failure} (a bug's Error inside the source's loop); null stops it. */
  synchronized void failWith(Error failure) {
    this.failure = failure;
  }

  private void check(String operation) {
    if (failure != null) {
      throw failure;
    }
    if (down) {
      throw new Unavailable("snapshot store unavailable (" + operation + "): connection refused", null);
    }
  }

  @Override
  public synchronized List<Lease> all() {
    check("list leases");
    return leases.stream().sorted(ORDER).toList();
  }

  @Override
  public synchronized Lease put(Lease lease) {
    check("store a lease");
    Lease stored = lease;
    for (Lease old : leases) {
      if (old.sameEndpoint(lease.cluster(), lease.address(), lease.port())) {
        stored = new Lease(lease.cluster(), lease.address(), lease.port(), lease.zone(), lease.weight(),
            lease.metadata(), lease.registeredBy(), old.createdAt(), lease.expiresAt(), lease.capacityRps(), lease.naming());
      }
    }
    leases.removeIf(l -> l.sameEndpoint(lease.cluster(), lease.address(), lease.port()));
    leases.add(stored);
    return stored;
  }

  @Override
  public synchronized boolean remove(String cluster, String address, int port) {
    check("remove a lease");
    return leases.removeIf(l -> l.sameEndpoint(cluster, address, port));
  }

  @Override
  public synchronized List<Lease> expire(Instant now) {
    check("expire leases");
    List<Lease> due = leases.stream().filter(l -> !l.expiresAt().isAfter(now)).sorted(ORDER).toList();
    leases.removeAll(due);
    return due;
  }
}
