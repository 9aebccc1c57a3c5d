package io.signalbox.controlplane.snapshot;

import io.signalbox.proto.v1.SnapshotEnvelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
      for (String name : tr.changedSinceParent()) {
        XdsResource r = tr.get(name);
        if (r == null) {
          tb.addRemoved(name);
        } else {
          tb.addResources(Snapshot.stored(r));
        }
      }
      b.addTypes(tb);
    }
    // Only the clusters whose list is another instance than the parent's: the sealed snapshot's
    // endpoint tree is its parent's with those paths copied, so this does not visit 10,000 clusters.
    List<String> gone = new ArrayList<>();
    sealed.forEachEndpointChange(parent, (cluster, old, list) -> {
      if (list == null) {
        if (!old.isEmpty()) {
          gone.add(cluster);
        }
      } else if (old != null && list.equals(old)) {
        return;
      } else if (list.isEmpty()) {
        if (old != null && !old.isEmpty()) {
          b.addRemovedEndpointClusters(cluster);
        }
      } else {
        // In cluster order, so the records group as toEnvelope groups them.
        list.forEach(e -> b.addEndpoints(EndpointRecords.toProto(cluster, e)));
      }
    });
    gone.forEach(b::addRemovedEndpointClusters);
    return Optional.of(b.build());
  }
}
