package io.signalbox.store;

import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A REST registry registration as stored: one endpoint of one cluster, held until {@code expiresAt}
 * unless renewed.
 *
 * @param zone empty when not given
 * @param metadata sorted, so two equal registrations compare equal however they were built
 * @param registeredBy the admin token's name, {@code anonymous} without tokens
 * @param createdAt the first registration; renewals keep it
 * @param capacityRps requests per second the endpoint can serve, checked by validation's
 *     {@code AdmissionRules} before it is stored; null when the registration declared none
 */
public record StoredLease(String cluster, String address, int port, String zone, int weight,
    Map<String, String> metadata, String registeredBy, Instant createdAt, Instant expiresAt, Integer capacityRps) {

  /** The order {@link LeaseStore#all()} lists leases in, whichever store holds them. */
  public static final Comparator<StoredLease> ORDER = Comparator.comparing(StoredLease::cluster)
      .thenComparing(StoredLease::address).thenComparingInt(StoredLease::port);

  public StoredLease {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(address, "address");
    zone = zone == null ? "" : zone;
    metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(metadata));
    registeredBy = registeredBy == null ? "" : registeredBy;
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** A lease declaring no capacity. */
  public StoredLease(String cluster, String address, int port, String zone, int weight,
      Map<String, String> metadata, String registeredBy, Instant createdAt, Instant expiresAt) {
    this(cluster, address, port, zone, weight, metadata, registeredBy, createdAt, expiresAt, null);
  }

  public boolean sameTarget(String c, String a, int p) {
    return cluster.equals(c) && address.equals(a) && port == p;
  }
}
