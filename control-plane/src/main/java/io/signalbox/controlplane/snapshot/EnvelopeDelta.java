package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A sealed snapshot's stored form as a delta on its parent: what the store writes for most epochs,
 * so that persisting a one-endpoint change costs O(change) instead of re-encoding all 20,002
 * resources and 100,000 endpoint records of 10,000 clusters. Applied to the parent's full envelope
 * (by the store's replay), it gives exactly {@link Snapshot#toEnvelope()} of the sealed snapshot.
 */
public final class EnvelopeDelta {

  private EnvelopeDelta() {}

  /**
   * {@code sealed} relative to {@code parent}; empty when it was not sealed on that parent or its
   * changes are not known (restored snapshots do not record them): only a full envelope then says
   * what it holds.
   */
  public static Optional<SnapshotEnvelope> of(Snapshot parent, Snapshot sealed) {
    if (parent == null || sealed.parentEpoch() != parent.epoch()) {
      return Optional.empty();
    }
    SnapshotEnvelope.Builder b = sealed.envelopeHeader().setDelta(true);
    // Every type, in the order toEnvelope writes them, with its version even when nothing changed.
    for (XdsType type : XdsType.values()) {
      TypeResources tr = sealed.resources(type);
      if (tr.changedSinceParent() == null) {
        return Optional.empty();
      }
      io.signalbox.proto.v1.TypeResources.Builder tb = io.signalbox.proto.v1.TypeResources.newBuilder()
          .setTypeUrl(type.typeUrl())
          .setVersionEpoch(tr.versionEpoch());
      for (String name : new TreeSet<>(tr.changedSinceParent())) {
        XdsResource r = tr.get(name);
        if (r == null) {
          tb.addRemoved(name);
        } else {
          tb.addResources(Snapshot.stored(r));
        }
      }
      b.addTypes(tb);
    }
    Map<String, List<EndpointSpec>> before = parent.endpoints();
    int[] alsoInParent = {0};
    // Sorted by cluster (the snapshot's map is), so the records group as toEnvelope groups them.
    sealed.endpoints().forEach((cluster, list) -> {
      List<EndpointSpec> old = before.get(cluster);
      if (old != null) {
        alsoInParent[0]++;
      }
      if (list == old || list.equals(old)) {
        return;
      }
      if (list.isEmpty()) {
        if (old != null && !old.isEmpty()) {
          b.addRemovedEndpointClusters(cluster);
        }
      } else {
        list.forEach(e -> b.addEndpoints(EndpointRecords.toProto(cluster, e)));
      }
    });
    // Every parent cluster is still there (the usual case): no second pass of 10,000 lookups.
    if (alsoInParent[0] < before.size()) {
      before.forEach((cluster, list) -> {
        if (!list.isEmpty() && !sealed.endpoints().containsKey(cluster)) {
          b.addRemovedEndpointClusters(cluster);
        }
      });
    }
    return Optional.of(b.build());
  }
}
