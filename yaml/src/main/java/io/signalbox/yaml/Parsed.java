package io.signalbox.yaml;

import io.signalbox.validation.Violation;
import java.util.List;
import java.util.function.Function;

/**
 * The outcome of reading a file: a value, or every problem found in it. Reading never throws on bad
 * input, so a caller can report all problems of a file at once and keep its last good value.
 */
public sealed interface Parsed<T> {

  /** The file read cleanly. */
  record Ok<T>(T value) implements Parsed<T> {}

  /** The file has at least one problem; {@code violations} lists all of them, in file order. */
  record Invalid<T>(List<Violation> violations) implements Parsed<T> {
    public Invalid {
      violations = List.copyOf(violations);
      if (violations.isEmpty()) {
        throw new IllegalArgumentException("Invalid needs at least one violation");
      }
    }
  }

  static <T> Parsed<T> ok(T value) {
    return new Ok<>(value);
  }

  static <T> Parsed<T> invalid(List<Violation> violations) {
    return new Invalid<>(violations);
  }

  /** The value converted by {@code mapper}; problems pass through unchanged. */
  default <R> Parsed<R> map(Function<? super T, ? extends R> mapper) {
    if (this instanceof Ok<T> ok) {
      return new Ok<>(mapper.apply(ok.value()));
    }
    return new Invalid<>(((Invalid<T>) this).violations());
  }

  /** Every problem found; empty when the file read cleanly. */
  default List<Violation> violations() {
    return this instanceof Invalid<T> invalid ? invalid.violations() : List.of();
  }
}
