package io.signalbox.source.registry;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One registration as the registry holds it: an endpoint of a cluster, served READY until
 * {@code expiresAt} unless renewed.
 *
 * @param address IPv4, IPv6 (without brackets) or DNS name
 * @param zone empty when not given
 * @param metadata kept and shown, not sent to clients (the endpoint model has no metadata yet)
 * @param registeredBy the admin token's name; empty without tokens
 * @param createdAt the first registration; renewals keep it
 * @param capacityRps the registration's capacity; null when it declared none
 * @param naming its hostname, hash key and additional addresses; {@link Naming#NONE} when it declared none
 */
public record Lease(String cluster, String address, int port, String zone, int weight, Map<String, String> metadata,
    String registeredBy, Instant createdAt, Instant expiresAt, Integer capacityRps, Naming naming) {

  public Lease {
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
  public Lease(String cluster, String address, int port, String zone, int weight, Map<String, String> metadata,
      String registeredBy, Instant createdAt, Instant expiresAt, Integer capacityRps) {
    this(cluster, address, port, zone, weight, metadata, registeredBy, createdAt, expiresAt, capacityRps, Naming.NONE);
  }

  /** A lease declaring no capacity. */
  public Lease(String cluster, String address, int port, String zone, int weight, Map<String, String> metadata,
      String registeredBy, Instant createdAt, Instant expiresAt) {
    this(cluster, address, port, zone, weight, metadata, registeredBy, createdAt, expiresAt, null, Naming.NONE);
  }

  /** {@code address:port}, IPv6 in brackets. */
  public String endpoint() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }

  /** {@code registry:cluster/address:port}, and who registered it when a token did. */
  public String origin() {
    return RegistrySource.ID + ":" + cluster + "/" + endpoint() + (registeredBy.isEmpty() ? "" : " by " + registeredBy);
  }

  /** What clients are sent: READY, priority 0. */
  public EndpointSpec toEndpoint() {
    return new EndpointSpec(address, port, zone, weight, 0, EndpointState.READY, origin(), capacityRps,
        naming.hashKey(), "", naming.hostname(), naming.additionalAddresses());
  }

  boolean sameEndpoint(String c, String a, int p) {
    return cluster.equals(c) && address.equals(a) && port == p;
  }
}
