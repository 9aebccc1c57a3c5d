package io.signalbox.store;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.signalbox.proto.v1.EndpointRecord;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.proto.v1.StoredResource;
import io.signalbox.proto.v1.TypeResources;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A state of two resource types and an endpoint model, changed step by step and sealed the way
 * the control plane seals snapshots: {@link #envelope} is the full envelope (canonical order),
 * {@link #delta} the delta on the epoch sealed before, worked out by comparing the two full
 * envelopes. One append at a time.
 */
public final class ChainSealer implements EpochSealer<SnapshotEnvelope> {

  public static final String CLUSTERS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  public static final String ENDPOINTS = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

  private final Map<String, TreeMap<String, String>> resources = new LinkedHashMap<>();
  private final Map<String, Long> typeVersions = new LinkedHashMap<>();
  private final TreeMap<String, List<String>> endpoints = new TreeMap<>();
  private final Map<String, StoredResource> lastStored = new TreeMap<>();
  private boolean offerDeltas = true;
  private long parentOverride = -1;
  private SnapshotEnvelope previous;
  private String cause = "test";

  public ChainSealer() {
    resources.put(CLUSTERS, new TreeMap<>());
    resources.put(ENDPOINTS, new TreeMap<>());
    typeVersions.put(CLUSTERS, 0L);
    typeVersions.put(ENDPOINTS, 0L);
  }

  /** Adds or changes a resource for the next epoch. */
  public ChainSealer put(String typeUrl, String name, String content) {
    resources.get(typeUrl).put(name, content);
    return this;
  }

  public ChainSealer remove(String typeUrl, String name) {
    resources.get(typeUrl).remove(name);
    return this;
  }

  /** Sets a cluster's endpoint addresses; none removes its records. */
  public ChainSealer endpoints(String cluster, String... addresses) {
    if (addresses.length == 0) {
      endpoints.remove(cluster);
    } else {
      endpoints.put(cluster, List.of(addresses));
    }
    return this;
  }

  public ChainSealer because(String why) {
    cause = why;
    return this;
  }

  /** Whether {@link #delta} offers one (a sealer that cannot tell what changed does not). */
  public ChainSealer offeringDeltas(boolean offer) {
    offerDeltas = offer;
    return this;
  }

  /** Seals the next epoch on {@code parent} rather than on the one sealed before. */
  public ChainSealer onParent(long parent) {
    parentOverride = parent;
    return this;
  }

  /** Forgets the state sealed before, as a restarted control plane's sealer knows only what it restored. */
  public ChainSealer restoredFrom(SnapshotEnvelope full) {
    previous = full;
    return this;
  }

  @Override
  public SnapshotEnvelope seal(long epoch) {
    long parent = parentOverride >= 0 ? parentOverride : previous == null ? 0 : previous.getEpoch();
    parentOverride = -1;
    SnapshotEnvelope.Builder b = SnapshotEnvelope.newBuilder()
        .setEpoch(epoch)
        .setParentEpoch(parent)
        .setContentHash("hash-" + epoch)
        .setCreatedAt(Timestamp.newBuilder().setSeconds(1_750_000_000L + epoch))
        .setProvenance(Provenance.newBuilder().setCause(cause).putSourceGenerations("files", "g" + epoch));
    resources.forEach((type, byName) -> {
      TypeResources.Builder tb = TypeResources.newBuilder().setTypeUrl(type);
      boolean changed = previous == null;
      for (var e : byName.entrySet()) {
        StoredResource before = lastStored.get(type + "/" + e.getKey());
        StoredResource r = before != null && before.getVersion().equals(version(e.getValue())) ? before
            : StoredResource.newBuilder()
                .setName(e.getKey())
                .setVersion(version(e.getValue()))
                .setChangedEpoch(epoch)
                .setResource(Any.newBuilder().setTypeUrl(type)
                    .setValue(ByteString.copyFrom(e.getValue(), StandardCharsets.UTF_8)))
                .addReferences(e.getKey())
                .build();
        changed |= r != before;
        tb.addResources(r);
      }
      if (previous != null) {
        changed |= previous.getTypesList().stream().filter(t -> t.getTypeUrl().equals(type))
            .flatMap(t -> t.getResourcesList().stream()).anyMatch(r -> !byName.containsKey(r.getName()));
      }
      if (changed) {
        typeVersions.put(type, epoch);
      }
      b.addTypes(tb.setVersionEpoch(typeVersions.get(type)));
    });
    endpoints.forEach((cluster, addresses) -> addresses.forEach(a -> b.addEndpoints(EndpointRecord.newBuilder()
        .setCluster(cluster).setAddress(a).setPort(8080).setZone("a").setWeight(1)
        .setState(io.signalbox.proto.v1.EndpointState.READY).setOrigin("file:e.yaml"))));
    SnapshotEnvelope full = b.build();
    lastStored.clear();
    full.getTypesList().forEach(t -> t.getResourcesList().forEach(r -> lastStored.put(t.getTypeUrl() + "/" + r.getName(), r)));
    sealedParent = previous;
    previous = full;
    return full;
  }

  private SnapshotEnvelope sealedParent;

  @Override
  public SnapshotEnvelope envelope(SnapshotEnvelope sealed) {
    return sealed;
  }

  @Override
  public Optional<SnapshotEnvelope> delta(SnapshotEnvelope sealed) {
    if (!offerDeltas || sealedParent == null || sealedParent.getEpoch() != sealed.getParentEpoch()) {
      return Optional.empty();
    }
    return Optional.of(diff(sealedParent, sealed));
  }

  /** {@code full} as a delta on {@code parent}. */
  public static SnapshotEnvelope diff(SnapshotEnvelope parent, SnapshotEnvelope full) {
    SnapshotEnvelope.Builder b = full.toBuilder().clearTypes().clearEndpoints().setDelta(true);
    for (TypeResources t : full.getTypesList()) {
      Map<String, StoredResource> before = new TreeMap<>();
      parent.getTypesList().stream().filter(p -> p.getTypeUrl().equals(t.getTypeUrl()))
          .forEach(p -> p.getResourcesList().forEach(r -> before.put(r.getName(), r)));
      TypeResources.Builder tb = TypeResources.newBuilder().setTypeUrl(t.getTypeUrl()).setVersionEpoch(t.getVersionEpoch());
      for (StoredResource r : t.getResourcesList()) {
        if (!r.equals(before.remove(r.getName()))) {
          tb.addResources(r);
        }
      }
      tb.addAllRemoved(before.keySet());
      b.addTypes(tb);
    }
    Map<String, List<EndpointRecord>> before = byCluster(parent);
    byCluster(full).forEach((cluster, records) -> {
      if (!records.equals(before.remove(cluster))) {
        b.addAllEndpoints(records);
      }
    });
    b.addAllRemovedEndpointClusters(before.keySet());
    return b.build();
  }

  private static Map<String, List<EndpointRecord>> byCluster(SnapshotEnvelope envelope) {
    Map<String, List<EndpointRecord>> out = new TreeMap<>();
    envelope.getEndpointsList().forEach(r -> out.computeIfAbsent(r.getCluster(), c -> new ArrayList<>()).add(r));
    return out;
  }

  private static String version(String content) {
    return Integer.toHexString(content.hashCode()) + ":" + content.length();
  }
}
