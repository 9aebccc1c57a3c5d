package io.signalbox.controlplane.reconcile;

/**
 * What an operator intervention came to: applied (stored, and the writer asked to rebuild), refused
 * with a reason the caller can show, or not done because the store cannot be reached. A refusal is
 * an expected answer, not an exception.
 */
public sealed interface Outcome<T> {

  /** Stored and in effect; {@code value} says what was done. */
  record Applied<T>(T value) implements Outcome<T> {}

  /**
   * Refused, nothing changed.
   *
   * @param code a stable identifier (the admin API's error code)
   */
  record Refused<T>(String code, String message) implements Outcome<T> {}

  /** The store could not record it (or the intent could not be read); nothing changed. */
  record Unavailable<T>(String message) implements Outcome<T> {}

  static <T> Outcome<T> applied(T value) {
    return new Applied<>(value);
  }

  static <T> Outcome<T> refused(String code, String message) {
    return new Refused<>(code, message);
  }
}
