package io.signalbox.source.registry;

import java.time.Instant;
import java.util.List;

/**
 * Where the registry keeps its leases so they outlive the process. A port: the control plane
 * implements it over its store, so this module needs no database.
 *
 * <p>Every method throws {@link Unavailable} when the backing store cannot be reached.
 */
public interface Leases {

  /** Every stored lease, expired or not, ordered by cluster, address and port. */
  List<Lease> all();

  /** Inserts the lease or replaces the one of the same endpoint, keeping its {@code createdAt}; returns it as stored. */
  Lease put(Lease lease);

  /** Deletes the lease of that endpoint; false if there was none. */
  boolean remove(String cluster, String address, int port);

  /** Deletes every lease due at or before {@code now} and returns them. */
  List<Lease> expire(Instant now);

  /** The backing store cannot be reached; the message says which operation and why. */
  final class Unavailable extends RuntimeException {
    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
