package io.signalbox.store;

import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
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
 * @param naming the hostname, hash key and additional addresses it declared, checked by validation's
 *     {@code EndpointRules} before it is stored; {@link Naming#NONE} when it declared none
 */
public record StoredLease(String cluster, String address, int port, String zone, int weight,
    Map<String, String> metadata, String registeredBy, Instant createdAt, Instant expiresAt, Integer capacityRps,
    Naming naming) {

  /**
   * A registration's hostname, hash key and additional addresses (issue 44), kept together as the
   * registry's own {@code Naming} keeps them.
   *
   * @param hostname empty when not declared
   * @param hashKey empty when not declared
   * @param additionalAddresses IP addresses without brackets, in the registration's order; empty for none
   */
  public record Naming(String hostname, String hashKey, List<String> additionalAddresses) {
    public static final Naming NONE = new Naming("", "", List.of());

    public Naming {
      hostname = hostname == null ? "" : hostname;
      hashKey = hashKey == null ? "" : hashKey;
      additionalAddresses = additionalAddresses == null ? List.of() : List.copyOf(additionalAddresses);
    }
  }

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
    naming = naming == null ? Naming.NONE : naming;
  }

  /** A lease declaring no hostname, hash key or additional address. */
  public StoredLease(String cluster, String address, int port, String zone, int weight,
      Map<String, String> metadata, String registeredBy, Instant createdAt, Instant expiresAt, Integer capacityRps) {
    this(cluster, address, port, zone, weight, metadata, registeredBy, createdAt, expiresAt, capacityRps, Naming.NONE);
  }

  /** A lease declaring no capacity. */
  public StoredLease(String cluster, String address, int port, String zone, int weight,
      Map<String, String> metadata, String registeredBy, Instant createdAt, Instant expiresAt) {
    this(cluster, address, port, zone, weight, metadata, registeredBy, createdAt, expiresAt, null, Naming.NONE);
  }

  public boolean sameTarget(String c, String a, int p) {
    return cluster.equals(c) && address.equals(a) && port == p;
  }
}
