package io.signalbox.controlplane.reconcile;

import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.translate.Translation;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.DesiredState;
import java.util.List;

/**
 * {@link XdsTranslator} fed its own previous result, so unchanged clusters, assignments, listeners
 * and route configs come back as the same instances and are neither rebuilt nor re-serialized.
 * Confined to the reconciler's thread, like every {@link Translator}.
 */
public final class IncrementalTranslator implements Translator {

  private final XdsTranslator translator = new XdsTranslator();
  private Translation previous = Translation.empty();

  @Override
  public List<TranslatedResource> translate(DesiredState state) {
    previous = translator.translate(state, previous);
    return previous.resources();
  }
}
