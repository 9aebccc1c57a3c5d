package io.signalbox.controlplane.reconcile;

import com.google.protobuf.Message;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks one translated resource the way its client will (Envoy's protoc-gen-validate rules). */
@FunctionalInterface
public interface ResourceCheck {
  List<Violation> check(String label, Message resource);

  /**
   * Checks only what {@code candidate} adds or changes: an unchanged resource passed before, and at
   * 10,000 clusters checking everything on every epoch is most of an epoch's cost.
   */
  default List<Violation> checkChanged(SnapshotCandidate candidate, List<TranslatedResource> translated) {
    Map<XdsType, Set<String>> changed = new EnumMap<>(XdsType.class);
    for (XdsType type : XdsType.ORDERED) {
      changed.put(type, new HashSet<>(candidate.changed(type)));
    }
    List<Violation> errors = new ArrayList<>();
    for (TranslatedResource r : translated) {
      if (changed.get(r.type()).contains(r.name())) {
        errors.addAll(check(label(r.type()) + " '" + r.name() + "'", r.message()));
      }
    }
    return errors;
  }

  private static String label(XdsType type) {
    return switch (type) {
      case CLUSTER -> "cluster";
      case ENDPOINT -> "endpoints of cluster";
      case LISTENER -> "listener";
      case ROUTE -> "route config";
    };
  }
}
