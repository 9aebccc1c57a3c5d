package io.signalbox.source.registry;

import java.util.List;

/**
 * What a registration may declare beyond its address and port, each as in an endpoint file: the
 * names clients find and place it by (issue 44). Grouped so a lease keeps one component for them.
 *
 * @param hostname its DNS name (gRFC A81: sent as {@code Endpoint.hostname}); empty when not declared
 * @param hashKey its ring key when its cluster's {@code hashKeySource} is {@code HASH_KEY} (gRFC A76);
 *     empty when not declared
 * @param additionalAddresses its other IP addresses on the same port, e.g. IPv6 beside an IPv4
 *     address (gRFC A61); empty for none
 */
public record Naming(String hostname, String hashKey, List<String> additionalAddresses) {

  /** What a registration that declares none of them has. */
  public static final Naming NONE = new Naming("", "", List.of());

  public Naming {
    hostname = hostname == null ? "" : hostname;
    hashKey = hashKey == null ? "" : hashKey;
    additionalAddresses = additionalAddresses == null ? List.of() : List.copyOf(additionalAddresses);
  }
}
