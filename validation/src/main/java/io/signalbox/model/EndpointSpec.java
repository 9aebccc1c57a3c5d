package io.signalbox.model;

import java.util.List;

/**
 * One endpoint of a cluster as a source reports it. Values are kept as given so the validator can
 * report every bad one; nothing here throws on a bad port or weight.
 *
 * @param address IPv4, IPv6 (without brackets) or DNS name
 * @param port 1-65535 when valid
 * @param zone locality zone; empty when unknown
 * @param weight 1-10000 when valid
 * @param priority 0-based, contiguous within a cluster when valid
 * @param state lifecycle state
 * @param origin where it came from: {@code file:/path}, {@code registry}, {@code kubernetes:ns/slice}
 * @param capacityRps requests per second it can serve, 1-1,000,000 when valid; null when it
 *     declares none (its cluster's {@code capacity} then applies)
 * @param hashKey its place on a hash ring when its cluster's {@code hashKeySource} is {@code
 *     HASH_KEY} (gRFC A76); empty when not declared
 * @param targetRef what Kubernetes says it is ({@code Pod/namespace/name}), a ring key that survives a
 *     new IP; empty outside Kubernetes
 * @param hostname the name the endpoint answers to (gRFC A81: a client rewriting the authority
 *     sends it as {@code :authority}); empty when not declared
 * @param additionalAddresses more IP addresses of the same backend on the same port, e.g. its IPv6
 *     address beside an IPv4 {@code address} (gRFC A61: the client connects to whichever answers
 *     first); empty for none
 * @param zoneHints the zones whose clients should prefer it (EndpointSlice {@code hints.forZones}:
 *     topology-aware routing); empty for none, and then a cluster with {@code zonePreference} goes by
 *     {@code zone}
 */
public record EndpointSpec(String address, int port, String zone, int weight, int priority, EndpointState state,
    String origin, Integer capacityRps, String hashKey, String targetRef, String hostname,
    List<String> additionalAddresses, List<String> zoneHints) {

  public static final int DEFAULT_WEIGHT = 1;

  public EndpointSpec {
    zone = zone == null ? "" : zone;
    state = state == null ? EndpointState.READY : state;
    origin = origin == null ? "" : origin;
    hashKey = hashKey == null ? "" : hashKey;
    targetRef = targetRef == null ? "" : targetRef;
    hostname = hostname == null ? "" : hostname;
    additionalAddresses = additionalAddresses == null ? List.of() : List.copyOf(additionalAddresses);
    zoneHints = zoneHints == null ? List.of() : List.copyOf(zoneHints);
  }

  /** An endpoint without zone hints. */
  public EndpointSpec(String address, int port, String zone, int weight, int priority, EndpointState state,
      String origin, Integer capacityRps, String hashKey, String targetRef, String hostname,
      List<String> additionalAddresses) {
    this(address, port, zone, weight, priority, state, origin, capacityRps, hashKey, targetRef, hostname,
        additionalAddresses, List.of());
  }

  /** An endpoint with no ring key of its own. */
  public EndpointSpec(String address, int port, String zone, int weight, int priority, EndpointState state,
      String origin, Integer capacityRps) {
    this(address, port, zone, weight, priority, state, origin, capacityRps, "", "", "", List.of());
  }

  /** An endpoint that declares no capacity. */
  public EndpointSpec(
      String address, int port, String zone, int weight, int priority, EndpointState state, String origin) {
    this(address, port, zone, weight, priority, state, origin, null);
  }

  /** {@code address:port}, with IPv6 addresses in brackets. */
  public String key() {
    return (address != null && address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }

  public EndpointSpec withState(EndpointState newState) {
    return new EndpointSpec(address, port, zone, weight, priority, newState, origin, capacityRps, hashKey, targetRef, hostname,
        additionalAddresses, zoneHints);
  }

  public EndpointSpec withWeight(int newWeight) {
    return new EndpointSpec(address, port, zone, newWeight, priority, state, origin, capacityRps, hashKey, targetRef, hostname,
        additionalAddresses, zoneHints);
  }

  public EndpointSpec withOrigin(String newOrigin) {
    return new EndpointSpec(address, port, zone, weight, priority, state, newOrigin, capacityRps, hashKey, targetRef, hostname,
        additionalAddresses, zoneHints);
  }

  public EndpointSpec withHashKey(String newHashKey) {
    return new EndpointSpec(address, port, zone, weight, priority, state, origin, capacityRps, newHashKey, targetRef, hostname,
        additionalAddresses, zoneHints);
  }

  public EndpointSpec withHostname(String newHostname) {
    return new EndpointSpec(address, port, zone, weight, priority, state, origin, capacityRps, hashKey, targetRef,
        newHostname, additionalAddresses, zoneHints);
  }

  public EndpointSpec withAdditionalAddresses(List<String> newAdditionalAddresses) {
    return new EndpointSpec(address, port, zone, weight, priority, state, origin, capacityRps, hashKey, targetRef,
        hostname, newAdditionalAddresses, zoneHints);
  }

  /** {@link #key()} of every address it answers on: its own first, then each additional one. */
  public List<String> keys() {
    if (additionalAddresses.isEmpty()) {
      return List.of(key());
    }
    java.util.ArrayList<String> out = new java.util.ArrayList<>(1 + additionalAddresses.size());
    out.add(key());
    for (String a : additionalAddresses) {
      out.add((a != null && a.indexOf(':') >= 0 ? "[" + a + "]" : a) + ":" + port);
    }
    return out;
  }

  public EndpointSpec withZoneHints(List<String> newZoneHints) {
    return new EndpointSpec(address, port, zone, weight, priority, state, origin, capacityRps, hashKey, targetRef,
        hostname, additionalAddresses, newZoneHints);
  }

  public EndpointSpec withTargetRef(String newTargetRef) {
    return new EndpointSpec(address, port, zone, weight, priority, state, origin, capacityRps, hashKey, newTargetRef, hostname,
        additionalAddresses, zoneHints);
  }
}
