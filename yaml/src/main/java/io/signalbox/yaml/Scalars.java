package io.signalbox.yaml;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One YAML scalar bound to one Java scalar type, with nothing coerced: a number, a boolean or an
 * enum must be written as one. The rules of what a scalar may be live here; {@link StrictYaml}
 * walks the tree and reports a refusal where it was written.
 */
final class Scalars {

  /** What binding one scalar gave: its value, or why it cannot be one. */
  sealed interface Bound {
    record Value(Object value) implements Bound {}

    /** {@code message} is the violation's text ("expected an integer, was 'x'"). */
    record Refused(String message) implements Bound {}
  }

  private static final String DURATION_HINT = "expected a duration like 250ms, 1s, 2m, 1h, was ";

  /**
   * Each enum's constants by name and by {@code toString}, exactly as written (a case-folded
   * {@code state: ready} is an error, not READY: issue 29), the first declared winning:
   * a state in an endpoint file is one lookup, not a reflective copy of the constants and a
   * case-insensitive walk (which also made this class's hottest method costly to compile).
   */
  private static final ClassValue<Map<String, Object>> ENUM_CONSTANTS = new ClassValue<>() {
    @Override
    protected Map<String, Object> computeValue(Class<?> type) {
      Map<String, Object> byName = new LinkedHashMap<>();
      for (Object constant : type.getEnumConstants()) {
        byName.putIfAbsent(((Enum<?>) constant).name(), constant);
        byName.putIfAbsent(constant.toString(), constant);
      }
      return Map.copyOf(byName);
    }
  };

  private Scalars() {}

  /**
   * {@code scalar} as a {@code type}.
   *
   * @param path where the scalar sits, only for the message of an unsupported {@code type} (a bug
   *     in the record being bound, not in the file)
   */
  static Bound bind(YamlNode.Scalar scalar, Class<?> type, String path) {
    String text = scalar.text();
    YamlNode.Kind kind = scalar.kind();
    if (type == String.class) {
      return new Bound.Value(text);
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      boolean isInt = type == int.class || type == Integer.class;
      if (kind == YamlNode.Kind.INTEGER) {
        try {
          return new Bound.Value(isInt ? (Object) Integer.valueOf(text.strip()) : (Object) Long.valueOf(text.strip()));
        } catch (NumberFormatException e) {
          // out of range, or a YAML 1.1 form (hex, underscores) that Signalbox files do not use
        }
      }
      return new Bound.Refused("expected an integer, was " + wrongKind(scalar, YamlNode.Kind.INTEGER));
    }
    if (type == double.class || type == Double.class) {
      if (kind == YamlNode.Kind.INTEGER || kind == YamlNode.Kind.FLOAT) {
        try {
          double value = Double.parseDouble(text.strip());
          if (Double.isFinite(value) && !text.strip().matches(".*[A-Za-z].*")) {
            return new Bound.Value(value);
          }
        } catch (NumberFormatException e) {
          // refused below
        }
      }
      return new Bound.Refused("expected a number, was " + wrongKind(scalar, YamlNode.Kind.FLOAT));
    }
    if (type == boolean.class || type == Boolean.class) {
      // YAML 1.1's yes/no/on/off reach us as booleans too: only true and false mean one here.
      String lower = text.strip().toLowerCase(Locale.ROOT);
      if (kind == YamlNode.Kind.BOOLEAN && (lower.equals("true") || lower.equals("false"))) {
        return new Bound.Value(Boolean.valueOf(lower));
      }
      return new Bound.Refused("expected true or false, was " + wrongKind(scalar, YamlNode.Kind.BOOLEAN));
    }
    if (type == Duration.class) {
      Optional<Duration> duration = StrictYaml.parseDuration(text);
      return duration.<Bound>map(Bound.Value::new)
          .orElseGet(() -> new Bound.Refused(DURATION_HINT + scalar.describe()));
    }
    if (type == Path.class) {
      try {
        return new Bound.Value(Path.of(text));
      } catch (InvalidPathException e) {
        return new Bound.Refused("expected a file path, was " + scalar.describe() + ": " + e.getReason());
      }
    }
    if (type.isEnum()) {
      return bindEnum(scalar, type);
    }
    throw new IllegalArgumentException("StrictYaml cannot bind " + type.getName() + " at " + path);
  }

  private static Bound bindEnum(YamlNode.Scalar scalar, Class<?> type) {
    String text = scalar.text();
    Object constant = ENUM_CONSTANTS.get(type).get(text.strip());
    if (constant != null) {
      return new Bound.Value(constant);
    }
    String allowed = Arrays.stream(type.getEnumConstants()).map(Object::toString).collect(Collectors.joining(", "));
    String hint = "";
    for (Object candidate : type.getEnumConstants()) {
      if (candidate.toString().equalsIgnoreCase(text.strip()) || ((Enum<?>) candidate).name().equalsIgnoreCase(text.strip())) {
        hint = " (names are case-sensitive: write " + candidate + ")";
      }
    }
    return new Bound.Refused("expected one of " + allowed + ", was " + scalar.describe() + hint);
  }

  /**
   * A scalar of the wrong kind, named so that a quoted number or boolean is told apart from a typo:
   * {@code port: "50051"} is the string "50051", never silently the integer (issue 29).
   */
  private static String wrongKind(YamlNode.Scalar scalar, YamlNode.Kind wanted) {
    if (scalar.kind() == YamlNode.Kind.STRING && looksLike(scalar.text().strip(), wanted)) {
      return "the string \"" + scalar.text() + "\" (write it without quotes)";
    }
    return scalar.describe();
  }

  private static boolean looksLike(String text, YamlNode.Kind kind) {
    return switch (kind) {
      case INTEGER -> text.matches("[-+]?\\d+");
      case FLOAT -> text.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");
      case BOOLEAN -> text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false");
      case STRING -> true;
    };
  }

  /** What a {@code type} is called in "expected X, was Y" messages. */
  static String describe(Class<?> type) {
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "an integer";
    }
    if (type == double.class || type == Double.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == Duration.class) {
      return "a duration";
    }
    if (type == Path.class) {
      return "a file path";
    }
    if (type.isEnum()) {
      return "one of " + Arrays.stream(type.getEnumConstants()).map(Object::toString).collect(Collectors.joining(", "));
    }
    return "a string";
  }

  /** What a missing key binds to: 0 or false for a primitive, else null. */
  static Object primitiveDefault(Class<?> type) {
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == double.class) {
      return 0.0;
    }
    if (type == boolean.class) {
      return false;
    }
    return null;
  }
}
