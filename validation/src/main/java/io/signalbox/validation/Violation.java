package io.signalbox.validation;

import java.util.Objects;

/**
 * One broken rule. Rendered as {@code source: path: message [rule]}, e.g.
 * {@code signalbox.yaml: cluster 'payments': outlierDetection.consecutive5xx: must be >= 1, was 0 [range]}.
 *
 * @param rule stable rule id, e.g. {@code reference.cluster}, {@code range}, {@code envoy.pgv}
 * @param source the file (or source id) the offending input came from; may be empty
 * @param path where inside that input, e.g. {@code cluster 'payments': connectTimeout}
 * @param message what is wrong and what was found
 */
public record Violation(String rule, Severity severity, String source, String path, String message) {

  public Violation {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(severity, "severity");
    source = source == null ? "" : source;
    path = path == null ? "" : path;
    Objects.requireNonNull(message, "message");
  }

  public static Violation error(String rule, String source, String path, String message) {
    return new Violation(rule, Severity.ERROR, source, path, message);
  }

  public static Violation warning(String rule, String source, String path, String message) {
    return new Violation(rule, Severity.WARNING, source, path, message);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    if (!source.isEmpty()) {
      out.append(source).append(": ");
    }
    if (!path.isEmpty()) {
      out.append(path).append(": ");
    }
    out.append(message).append(" [").append(rule).append(']');
    if (severity == Severity.WARNING) {
      out.append(" (warning)");
    }
    return out.toString();
  }
}
