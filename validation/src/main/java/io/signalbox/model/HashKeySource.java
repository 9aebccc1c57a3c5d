package io.signalbox.model;

/**
 * Where an endpoint's place on a {@code RING_HASH} ring comes from ({@code ringHash.hashKeySource}). With
 * anything but {@link #ADDRESS} the key is sent as the endpoint's {@code envoy.lb} metadata {@code
 * hash_key} (gRFC A76; Envoy's ring hash reads the same key); an endpoint without one
 * keeps its address, as before.
 */
public enum HashKeySource {
  /** The endpoint's address, as every client does without a key: a new IP is a new place. */
  ADDRESS,
  /** The Kubernetes object behind the endpoint ({@code Pod/namespace/name}): survives a pod's new IP. */
  TARGET_REF,
  /** The endpoint's declared {@code hashKey} (endpoint files, the registry). */
  HASH_KEY;

  /** The key to send for {@code e}, or empty for none (the client then hashes the address). */
  public String keyOf(EndpointSpec e) {
    return switch (this) {
      case ADDRESS -> "";
      case TARGET_REF -> e.targetRef();
      case HASH_KEY -> e.hashKey();
    };
  }
}
