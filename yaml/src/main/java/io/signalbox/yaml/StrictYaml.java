package io.signalbox.yaml;

import io.signalbox.model.Inline;
import io.signalbox.validation.EditDistance;
import io.signalbox.validation.Violation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads YAML into Java records strictly: unknown keys, wrong types, bad enum values and bad
 * durations are all errors, and every one of them is reported at once with its line, column and
 * field path ({@code line 12, column 7: clusters[0].conectTimeout}).
 *
 * <p>Supported targets: records (by component name), {@code List<T>}, {@code Map<String, T>}, enums
 * (matched by name or {@code toString()}, case-sensitive), {@code String}, {@code int}/{@code
 * Integer}, {@code long}/{@code Long}, {@code double}/{@code Double} (finite), {@code boolean}/{@code
 * Boolean}, {@link Duration} and {@link Path}. A missing key binds to null (0/false for primitives), so records' compact constructors
 * decide defaults. Nothing is coerced: a number, a boolean or an enum must be written as one, so
 * {@code port: "8080"} (a string) and {@code state: ready} (case) are errors that say so; a string
 * target takes any scalar's text. A record component marked {@link Inline} is a group of settings
 * written at its parent's level: its keys are read from the parent's mapping.
 *
 * <p>This class walks the tree and reports; what one scalar may be is {@link Scalars}, reading
 * YAML into a located tree is {@link YamlReader}, and each record's shape is {@link RecordShape}.
 */
public final class StrictYaml {

  /** The rule id of every violation reported here. */
  public static final String RULE = "parse";

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

  private final String source;
  private final List<Violation> violations = new ArrayList<>();

  private StrictYaml(String source) {
    this.source = source == null ? "" : source;
  }

  /**
   * Reads {@code text} as a {@code type}.
   *
   * @param source the file name to put in violations
   */
  public static <T> Parsed<T> parse(String text, String source, Class<T> type) {
    StrictYaml binder = new StrictYaml(source);
    YamlNode root = new YamlReader(binder.source, binder.violations).read(text);
    if (root == null) {
      return Parsed.invalid(binder.violations);
    }
    Object value = binder.bind(root, type, "");
    if (!binder.violations.isEmpty()) {
      return Parsed.invalid(binder.violations);
    }
    return Parsed.ok(type.cast(value));
  }

  /**
   * Reads a duration as written in Signalbox files: a non-negative number and a unit of {@code ms},
   * {@code s}, {@code m} or {@code h} ({@code 250ms}, {@code 1.5s}, {@code 0s}); a bare {@code 0}.
   */
  public static Optional<Duration> parseDuration(String text) {
    String trimmed = text.strip();
    if (trimmed.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    Matcher m = DURATION.matcher(trimmed);
    if (!m.matches()) {
      return Optional.empty();
    }
    long unitNanos =
        switch (m.group(2)) {
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m" -> 60_000_000_000L;
          default -> 3_600_000_000_000L;
        };
    try {
      BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNanos));
      return Optional.of(Duration.ofNanos(nanos.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact()));
    } catch (ArithmeticException tooLarge) {
      return Optional.empty();
    }
  }

  private Object bind(YamlNode node, Type type, String path) {
    Class<?> raw = rawClass(type);
    if (node instanceof YamlNode.Null) {
      return Scalars.primitiveDefault(raw);
    }
    if (raw.isRecord()) {
      return bindRecord(node, raw, path);
    }
    if (raw == List.class) {
      return bindList(node, typeArgument(type, 0), path);
    }
    if (raw == Map.class) {
      return bindMap(node, typeArgument(type, 1), path);
    }
    if (!(node instanceof YamlNode.Scalar scalar)) {
      report(node, path, "expected " + Scalars.describe(raw) + ", was " + node.describe());
      return Scalars.primitiveDefault(raw);
    }
    Scalars.Bound bound = Scalars.bind(scalar, raw, path);
    if (bound instanceof Scalars.Bound.Refused refused) {
      report(scalar, path, refused.message());
      return Scalars.primitiveDefault(raw);
    }
    return ((Scalars.Bound.Value) bound).value();
  }

  private Object bindRecord(YamlNode node, Class<?> type, String path) {
    if (!(node instanceof YamlNode.Mapping mapping)) {
      report(node, path, "expected a mapping, was " + node.describe());
      return null;
    }
    RecordShape shape = RecordShape.OF.get(type);
    Object[] args = shape.initialArgs();
    int before = violations.size();
    // Keys in the order written, an inline group's among its parent's, so problems are reported in file order.
    for (YamlNode.Entry entry : mapping.entries().values()) {
      String childPath = child(path, entry.key());
      int[] route = shape.index().get(entry.key());
      if (route == null) {
        violations.add(
            Violation.error(RULE, source, location(entry.line(), entry.column(), childPath),
                unknownKey(entry.key(), shape.index().keySet())));
        continue;
      }
      Object[] target = args;
      RecordShape owner = shape;
      for (int step = 0; step < route.length - 1; step++) {
        target = (Object[]) target[route[step]];
        owner = owner.inline()[route[step]];
      }
      int at = route[route.length - 1];
      target[at] = bind(entry.value(), owner.types()[at], childPath);
    }
    if (violations.size() > before) {
      return null;
    }
    return construct(shape, args, node, path);
  }

  /** The record of {@code args}, its inline groups built first (each even when none of its keys is written). */
  private Object construct(RecordShape shape, Object[] args, YamlNode node, String path) {
    if (shape.hasInline()) {
      for (int i = 0; i < args.length; i++) {
        if (shape.inline()[i] != null) {
          args[i] = construct(shape.inline()[i], (Object[]) args[i], node, path);
          if (args[i] == null) {
            return null;
          }
        }
      }
    }
    try {
      return shape.constructor().newInstance(args);
    } catch (InvocationTargetException e) {
      // A compact constructor rejected the combination of values; report it where it was written.
      Throwable cause = e.getCause();
      report(node, path, cause.getMessage() != null ? cause.getMessage() : cause.toString());
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot construct " + shape.constructor().getDeclaringClass().getName(), e);
    }
  }

  private List<Object> bindList(YamlNode node, Type elementType, String path) {
    if (!(node instanceof YamlNode.Sequence sequence)) {
      report(node, path, "expected a list, was " + node.describe());
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < sequence.items().size(); i++) {
      YamlNode item = sequence.items().get(i);
      if (item instanceof YamlNode.Null) {
        // A stray "-" is a mistake, and records' List.copyOf would choke on the null.
        report(item, path + "[" + i + "]", "expected a list item, was null");
        continue;
      }
      out.add(bind(item, elementType, path + "[" + i + "]"));
    }
    return out;
  }

  private Map<String, Object> bindMap(YamlNode node, Type valueType, String path) {
    if (!(node instanceof YamlNode.Mapping mapping)) {
      report(node, path, "expected a mapping, was " + node.describe());
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (YamlNode.Entry entry : mapping.entries().values()) {
      out.put(entry.key(), bind(entry.value(), valueType, child(path, entry.key())));
    }
    return out;
  }

  private void report(YamlNode node, String path, String message) {
    violations.add(Violation.error(RULE, source, location(node.line(), node.column(), path), message));
  }

  private static String location(int line, int column, String path) {
    String at = "line " + line + ", column " + column;
    return path.isEmpty() ? at : at + ": " + path;
  }

  private static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String unknownKey(String key, java.util.Set<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int d = EditDistance.between(key.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    // Close enough to be a typo: a third of the key's length, at most 3 edits.
    if (best != null && bestDistance <= Math.max(1, Math.min(3, key.length() / 3))) {
      return "unknown key '" + key + "' (did you mean '" + best + "'?)";
    }
    return "unknown key '" + key + "' (expected one of " + String.join(", ", known) + ")";
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    throw new IllegalArgumentException("StrictYaml cannot bind " + type);
  }

  private static Type typeArgument(Type type, int index) {
    if (type instanceof ParameterizedType p) {
      return p.getActualTypeArguments()[index];
    }
    throw new IllegalArgumentException("StrictYaml needs a parameterized " + type);
  }
}
