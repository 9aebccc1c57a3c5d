package io.signalbox.validation;

import io.signalbox.model.DesiredState;

/** Checks a desired state against every rule and returns all violations at once; never throws. */
public interface Validator {
  ValidationResult validate(DesiredState state);
}
