package io.signalbox.controlplane.admin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4: every sample must belong to a
 * family declared by {@code # TYPE} before it, names and labels must be well formed, and no series
 * may appear twice. Enough to prove that {@code /metrics} is something Prometheus would accept.
 */
public final class PrometheusText {

  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
  private static final List<String> SUFFIXES = List.of("", "_total", "_count", "_sum", "_bucket", "_created", "_info");

  public record Sample(String name, Map<String, String> labels, double value) {}

  /** Parsed families by name: their type and samples. */
  public record Exposition(Map<String, String> types, List<Sample> samples) {

    public List<Sample> samples(String name) {
      return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    public double value(String name, Map<String, String> labels) {
      return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
          .findFirst().orElseThrow(() -> new AssertionError("no series " + name + labels)).value();
    }

    public double value(String name) {
      return value(name, Map.of());
    }
  }

  private PrometheusText() {}

  public static Exposition parse(String text) {
    Map<String, String> types = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Map<String, Boolean> helped = new HashMap<>();
    String[] lines = text.split("\n", -1);
    if (!text.endsWith("\n")) {
      throw new IllegalArgumentException("exposition must end with a newline");
    }
    for (int i = 0; i < lines.length - 1; i++) {
      String line = lines[i];
      String where = "line " + (i + 1) + ": ";
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.substring(7).split(" ");
        require(parts.length == 2 && NAME.matcher(parts[0]).matches() && TYPES.contains(parts[1]), where + line);
        require(types.put(parts[0], parts[1]) == null, where + "TYPE declared twice: " + parts[0]);
        continue;
      }
      if (line.startsWith("# HELP ")) {
        String name = line.substring(7).split(" ", 2)[0];
        require(NAME.matcher(name).matches(), where + line);
        require(helped.put(name, true) == null, where + "HELP given twice: " + name);
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      Sample sample = sample(line, where);
      require(family(sample.name(), types) != null, where + "sample of an undeclared family: " + sample.name());
      require(seen.add(sample.name() + new TreeMap<>(sample.labels())), where + "duplicate series: " + line);
      samples.add(sample);
    }
    return new Exposition(types, samples);
  }

  private static String family(String sample, Map<String, String> types) {
    for (String suffix : SUFFIXES) {
      if (sample.endsWith(suffix) && types.containsKey(sample.substring(0, sample.length() - suffix.length()))) {
        return sample.substring(0, sample.length() - suffix.length());
      }
    }
    return null;
  }

  private static Sample sample(String line, String where) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    require(NAME.matcher(name).matches(), where + "bad metric name: " + line);
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        require(eq > i, where + "bad label: " + line);
        String label = line.substring(i, eq);
        require(LABEL.matcher(label).matches(), where + "bad label name '" + label + "': " + line);
        require(line.charAt(eq + 1) == '"', where + "label value must be quoted: " + line);
        StringBuilder value = new StringBuilder();
        int j = eq + 2;
        for (; line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\') {
            char next = line.charAt(++j);
            require(next == '\\' || next == '"' || next == 'n', where + "bad escape: " + line);
            value.append(next == 'n' ? '\n' : next);
          } else {
            value.append(c);
          }
        }
        require(labels.put(label, value.toString()) == null, where + "label given twice: " + line);
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      i++;
    }
    require(i < line.length() && line.charAt(i) == ' ', where + "expected a space before the value: " + line);
    String[] rest = line.substring(i + 1).split(" ");
    require(rest.length == 1 || rest.length == 2, where + "expected value [timestamp]: " + line);
    return new Sample(name, labels, value(rest[0], where));
  }

  private static double value(String raw, String where) {
    return switch (raw) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> {
        try {
          yield Double.parseDouble(raw);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(where + "bad value '" + raw + "'");
        }
      }
    };
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
