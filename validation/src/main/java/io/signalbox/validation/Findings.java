package io.signalbox.validation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects violations for one validation run and phrases the common checks once, so every rule
 * family words "out of range" and "missing" the same way. Not thread-safe; one per run.
 */
final class Findings {

  static final String REQUIRED = "required";
  static final String RANGE = "range";
  static final String NAME = "name";
  static final String DUPLICATE_NAME = "duplicate.name";

  private final List<Violation> violations = new ArrayList<>();

  void error(String rule, String source, String path, String message) {
    violations.add(Violation.error(rule, source, path, message));
  }

  void warning(String rule, String source, String path, String message) {
    violations.add(Violation.warning(rule, source, path, message));
  }

  List<Violation> violations() {
    return violations;
  }

  /** Checks an optional integer against an inclusive range; null means "not set" and passes. */
  void range(String source, String path, Integer value, long min, long max) {
    if (value != null) {
      range(source, path, value.longValue(), min, max);
    }
  }

  void range(String source, String path, Long value, long min, long max) {
    if (value != null) {
      range(source, path, value.longValue(), min, max);
    }
  }

  void range(String source, String path, long value, long min, long max) {
    if (value < min) {
      error(RANGE, source, path, "must be >= " + min + ", was " + value);
    } else if (value > max) {
      error(RANGE, source, path, "must be <= " + max + ", was " + value);
    }
  }

  /** An optional duration that must be strictly positive when set. */
  void positive(String source, String path, Duration value) {
    if (value != null && (value.isZero() || value.isNegative())) {
      error(RANGE, source, path, "must be > 0s, was " + format(value));
    }
  }

  /** An optional duration that must not be negative when set. */
  void nonNegative(String source, String path, Duration value) {
    if (value != null && value.isNegative()) {
      error(RANGE, source, path, "must be >= 0s, was " + format(value));
    }
  }

  /**
   * A resource name: present, non-blank, and within {@link NameRules#nameProblem}. Returns whether
   * it is usable as a key for uniqueness and reference checks.
   */
  boolean name(String source, String path, String name) {
    if (name == null) {
      error(REQUIRED, source, path, "is required");
      return false;
    }
    if (name.isBlank()) {
      error(REQUIRED, source, path, "must not be blank");
      return false;
    }
    NameRules.nameProblem(name).ifPresent(problem -> error(NAME, source, path, problem));
    return true;
  }

  /** Names must be unique per kind; every later duplicate names the index of the first. */
  void uniqueNames(String source, String kind, String listName, List<String> names) {
    Map<String, Integer> first = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name == null || name.isBlank()) {
        continue;
      }
      Integer previous = first.putIfAbsent(name, i);
      if (previous != null) {
        error(
            DUPLICATE_NAME,
            source,
            listName + "[" + i + "]: name",
            "duplicate " + kind + " '" + name + "' (also at " + listName + "[" + previous + "])");
      }
    }
  }

  static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }

  /** The config file's spelling of a duration ({@code 1s}, {@code 250ms}, {@code 1h}). */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (d.getNano() == 0) {
      long s = d.getSeconds();
      if (s % 3600 == 0) {
        return s / 3600 + "h";
      }
      if (s % 60 == 0) {
        return s / 60 + "m";
      }
      return s + "s";
    }
    if (d.getNano() % 1_000_000 == 0) {
      return d.toMillis() + "ms";
    }
    return d.toString();
  }
}
