package io.signalbox.store.chain;

import io.signalbox.proto.v1.EndpointRecord;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.proto.v1.StoredResource;
import io.signalbox.proto.v1.TypeResources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A full envelope being rebuilt: a checkpoint with deltas applied in epoch order. The result lists
 * the types in the checkpoint's order (types new in a delta after them), each type's resources by
 * name, and endpoint records grouped by cluster in name order, each cluster's records in the order
 * stored: the order {@code Snapshot.toEnvelope} writes, so a rebuilt envelope is byte-for-byte the
 * one that was sealed. Not thread-safe.
 */
public final class DeltaReplay {

  private static final class TypeState {
    long versionEpoch;
    final TreeMap<String, StoredResource> byName = new TreeMap<>();
  }

  private final Map<String, TypeState> types = new LinkedHashMap<>();
  private final TreeMap<String, List<EndpointRecord>> endpoints = new TreeMap<>();
  /** The last envelope applied: epoch, parent, hash, time and provenance come from it. */
  private SnapshotEnvelope head;

  public DeltaReplay(SnapshotEnvelope checkpoint) {
    if (checkpoint.getDelta()) {
      throw new IllegalArgumentException("epoch " + checkpoint.getEpoch() + " is a delta, not a checkpoint");
    }
    head = checkpoint;
    for (TypeResources tr : checkpoint.getTypesList()) {
      TypeState state = types.computeIfAbsent(tr.getTypeUrl(), url -> new TypeState());
      state.versionEpoch = tr.getVersionEpoch();
      tr.getResourcesList().forEach(r -> state.byName.put(r.getName(), r));
    }
    for (EndpointRecord r : checkpoint.getEndpointsList()) {
      endpoints.computeIfAbsent(r.getCluster(), c -> new ArrayList<>()).add(r);
    }
  }

  public long epoch() {
    return head.getEpoch();
  }

  /** Applies the delta of the epoch built on the one replayed so far. */
  public void apply(SnapshotEnvelope delta) {
    if (!delta.getDelta() || delta.getParentEpoch() != head.getEpoch()) {
      throw new IllegalStateException("epoch " + delta.getEpoch() + " (" + (delta.getDelta() ? "a delta on " : "full, parent ")
          + delta.getParentEpoch() + ") cannot be applied to epoch " + head.getEpoch());
    }
    for (TypeResources tr : delta.getTypesList()) {
      TypeState state = types.computeIfAbsent(tr.getTypeUrl(), url -> new TypeState());
      state.versionEpoch = tr.getVersionEpoch();
      tr.getRemovedList().forEach(state.byName::remove);
      tr.getResourcesList().forEach(r -> state.byName.put(r.getName(), r));
    }
    delta.getRemovedEndpointClustersList().forEach(endpoints::remove);
    Map<String, List<EndpointRecord>> replaced = new LinkedHashMap<>();
    for (EndpointRecord r : delta.getEndpointsList()) {
      replaced.computeIfAbsent(r.getCluster(), c -> new ArrayList<>()).add(r);
    }
    endpoints.putAll(replaced);
    head = delta;
  }

  public SnapshotEnvelope toEnvelope() {
    SnapshotEnvelope.Builder b = head.toBuilder()
        .clearDelta()
        .clearTypes()
        .clearEndpoints()
        .clearRemovedEndpointClusters();
    types.forEach((url, state) -> b.addTypes(TypeResources.newBuilder()
        .setTypeUrl(url)
        .setVersionEpoch(state.versionEpoch)
        .addAllResources(state.byName.values())));
    endpoints.values().forEach(b::addAllEndpoints);
    return b.build();
  }
}
