package io.signalbox.validation;

import java.util.ArrayList;
import java.util.List;

/** Every violation found, errors and warnings together, in the order they were found. */
public record ValidationResult(List<Violation> violations) {

  public static final ValidationResult OK = new ValidationResult(List.of());

  public ValidationResult {
    violations = List.copyOf(violations);
  }

  public boolean isValid() {
    return violations.stream().noneMatch(Violation::isError);
  }

  public List<Violation> errors() {
    return violations.stream().filter(Violation::isError).toList();
  }

  public List<Violation> warnings() {
    return violations.stream().filter(v -> !v.isError()).toList();
  }

  public ValidationResult and(ValidationResult other) {
    List<Violation> all = new ArrayList<>(violations);
    all.addAll(other.violations);
    return new ValidationResult(all);
  }
}
