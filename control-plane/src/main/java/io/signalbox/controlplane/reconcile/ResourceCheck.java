package io.signalbox.controlplane.reconcile;

import com.google.protobuf.Message;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/** Checks one translated resource the way its client will (Envoy's protoc-gen-validate rules). */
@FunctionalInterface
public interface ResourceCheck {
  List<Violation> check(String label, Message resource);

  /**
   * Checks only what {@code candidate} adds or changes: an unchanged resource passed before, and at
   * 10,000 clusters checking everything on every epoch is most of an epoch's cost. The changed
   * resources are looked up by name in the candidate, which holds the very messages translation
   * produced, rather than found by walking all 20,002 translated resources. Violations come in push
   * order, by name within a type, as the translated list is ordered.
   */
  default List<Violation> checkChanged(SnapshotCandidate candidate) {
    List<Violation> errors = new ArrayList<>();
    for (XdsType type : XdsType.ORDERED) {
      for (String name : candidate.changed(type)) {
        errors.addAll(check(label(type) + " '" + name + "'", candidate.changedMessage(type, name)));
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
