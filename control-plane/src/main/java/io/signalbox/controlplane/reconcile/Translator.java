package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.model.DesiredState;
import java.util.List;

/**
 * Model to xDS. Called only from the reconciler's thread, so an implementation may remember the
 * previous call and return the same {@link TranslatedResource} instances for unchanged input.
 */
@FunctionalInterface
public interface Translator {
  List<TranslatedResource> translate(DesiredState state);
}
