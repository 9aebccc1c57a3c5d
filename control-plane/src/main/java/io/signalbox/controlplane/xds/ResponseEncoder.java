package io.signalbox.controlplane.xds;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.envoyproxy.envoy.service.discovery.v3.ResourceError;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Encodes each distinct response once and hands every stream that is sent the same one the same
 * bytes ({@link EncodedResponse}). After a one-endpoint change a thousand streams are each sent the
 * same ClusterLoadAssignment under the same version: it is encoded for the first and looked up for
 * the other 999, where a server that serializes per stream (java-control-plane, the load tool's
 * floor) builds and encodes a thousand messages.
 *
 * <p>A response is named by what decides its bytes: its type and variant, its version, the
 * version of every resource in it (a resource's version is the SHA-256 of its content, name
 * included), the names it removes and its per-resource errors. Thread-safe: streams encode on
 * whatever thread flushes them. Bounded by the bytes it keeps ({@link #MAX_BYTES}); a response
 * evicted is encoded again by the next stream that needs it, so the bound costs CPU, never
 * correctness.
 */
final class ResponseEncoder {

  /** Responses kept: a few epochs' worth of a large fleet's distinct responses. */
  static final long MAX_BYTES = 64L << 20;

  private record Key(XdsType type, boolean delta, String version, List<String> versions, List<String> removed,
      List<ResourceError> errors) {}

  private final Cache<Key, EncodedResponse> encoded = CacheBuilder.newBuilder()
      .maximumWeight(MAX_BYTES)
      .<Key, EncodedResponse>weigher((key, response) -> response.weight() + 64 * key.versions().size())
      .build();

  /** The response to a state-of-the-world request. */
  EncodedResponse sotw(XdsType type, String version, Collection<XdsResource> resources, List<ResourceError> errors) {
    Key key = new Key(type, false, version, versions(resources), List.of(), errors);
    EncodedResponse known = encoded.getIfPresent(key);
    if (known != null) {
      return known;
    }
    DiscoveryResponse.Builder head = DiscoveryResponse.newBuilder().setVersionInfo(version).setTypeUrl(type.typeUrl());
    for (XdsResource r : resources) {
      head.addResources(r.any());
    }
    byte[] tail = errors.isEmpty() ? new byte[0]
        : DiscoveryResponse.newBuilder().addAllResourceErrors(errors).build().toByteArray();
    return remember(key, new EncodedResponse(head.build().toByteArray(), tail));
  }

  /** The response to a delta request. */
  EncodedResponse delta(XdsType type, String version, Collection<XdsResource> resources, List<String> removed,
      List<ResourceError> errors) {
    Key key = new Key(type, true, version, versions(resources), List.copyOf(removed), errors);
    EncodedResponse known = encoded.getIfPresent(key);
    if (known != null) {
      return known;
    }
    DeltaDiscoveryResponse.Builder head = DeltaDiscoveryResponse.newBuilder().setSystemVersionInfo(version)
        .setTypeUrl(type.typeUrl());
    for (XdsResource r : resources) {
      head.addResources(Resource.newBuilder().setName(r.name()).setVersion(r.version()).setResource(r.any()));
    }
    DeltaDiscoveryResponse.Builder tail = DeltaDiscoveryResponse.newBuilder().addAllRemovedResources(removed)
        .addAllResourceErrors(errors);
    return remember(key, new EncodedResponse(head.build().toByteArray(), tail.build().toByteArray()));
  }

  private EncodedResponse remember(Key key, EncodedResponse response) {
    // Two streams may encode the same response at once; either copy is right, the first one stays.
    EncodedResponse raced = encoded.asMap().putIfAbsent(key, response);
    return raced != null ? raced : response;
  }

  private static List<String> versions(Collection<XdsResource> resources) {
    List<String> versions = new ArrayList<>(resources.size());
    for (XdsResource r : resources) {
      versions.add(r.version());
    }
    return versions;
  }

  /** How many distinct responses are kept now (tests). */
  long size() {
    encoded.cleanUp();
    return encoded.size();
  }
}
