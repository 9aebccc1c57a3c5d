package io.signalbox.controlplane.reconcile;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.DesiredState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Instant;
import java.util.HashMap;
import java.util.function.LongFunction;

/**
 * Resources held back after a rejection or an operator rollback. An entry says: while translation
 * still produces exactly {@code rejectedVersion} of this resource, serve the version of
 * {@code restoreEpoch} instead. When the input behind it changes (a different version comes out
 * of translation), the entry is lifted. Restored endpoints go through {@link EndpointRestore}, so
 * nothing removed or draining comes back. The entries are operator intent ({@link Intent}): stored
 * before they apply, so a restart keeps what a rollback held back.
 */
final class Quarantine {

  record Key(XdsType type, String name) {}

  record Entry(String rejectedVersion, long restoreEpoch, String reason, String actor, Instant at) {}

  /**
   * @param resources the translation with every quarantined resource restored
   * @param lifted the entries whose input changed since (key -> the version they held back): to lift
   */
  record Applied(List<TranslatedResource> resources, Map<Key, String> lifted) {}

  private Quarantine() {}

  /**
   * {@code translated} with every quarantined resource replaced by its restored version (or left
   * out, if the restore epoch did not have it). Called on the reconciler's thread.
   *
   * @param snapshots loads the snapshot of an epoch (memory or store)
   */
  static Applied apply(Map<Key, Entry> entries, List<TranslatedResource> translated, DesiredState desired,
      LongFunction<Snapshot> snapshots) {
    if (entries.isEmpty()) {
      return new Applied(translated, Map.of());
    }
    List<TranslatedResource> out = new ArrayList<>(translated.size());
    Map<Key, String> lifted = new HashMap<>();
    for (TranslatedResource r : translated) {
      Key key = new Key(r.type(), r.name());
      Entry entry = entries.get(key);
      if (entry == null) {
        out.add(r);
        continue;
      }
      String fresh = SnapshotBuilder.versionOf(r.message());
      if (!fresh.equals(entry.rejectedVersion())) {
        lifted.put(key, entry.rejectedVersion());
        out.add(r);
        continue;
      }
      Snapshot restoreFrom = snapshots.apply(entry.restoreEpoch());
      XdsResource old = restoreFrom == null ? null : restoreFrom.resources(r.type()).get(r.name());
      if (old == null) {
        continue;
      }
      Message message = unpack(old);
      if (r.type() == XdsType.ENDPOINT) {
        message = EndpointRestore.restore((ClusterLoadAssignment) message, desired.endpointsOf(r.name()));
      }
      out.add(new TranslatedResource(r.type(), r.name(), message, old.references()));
    }
    return new Applied(out, lifted);
  }
  private static Message unpack(XdsResource r) {
    return switch (r.type()) {
      case CLUSTER -> r.content(Cluster.class);
      case ENDPOINT -> r.content(ClusterLoadAssignment.class);
      case LISTENER -> r.content(Listener.class);
      case ROUTE -> r.content(RouteConfiguration.class);
    };
  }
}
