package io.signalbox.controlplane.reconcile;

import com.google.protobuf.Message;
import io.signalbox.validation.Violation;
import java.util.List;

/** Checks one translated resource the way its client will (Envoy's protoc-gen-validate rules). */
@FunctionalInterface
public interface ResourceCheck {
  List<Violation> check(String label, Message resource);
}
