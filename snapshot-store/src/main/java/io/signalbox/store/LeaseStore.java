package io.signalbox.store;

import java.time.Instant;
import java.util.List;

/**
 * REST registry leases, kept so registrations survive a restart with their expiry times. One
 * lease per (cluster, address, port).
 */
public interface LeaseStore {

  /** Every lease, expired or not, ordered by cluster, address and port (as Java compares strings). */
  List<StoredLease> all();

  /**
   * Inserts the lease, or replaces the one of the same endpoint keeping its {@code createdAt}.
   *
   * @return the lease as stored
   */
  StoredLease put(StoredLease lease);

  /** Deletes the lease of that endpoint; false if there was none. */
  boolean remove(String cluster, String address, int port);

  /** Deletes every lease whose {@code expiresAt} is at or before {@code now} and returns them. */
  List<StoredLease> expire(Instant now);
}
