package io.signalbox.source.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a Service port becomes a cluster name, e.g. {@code {namespace}/{service}:{port}} →
 * {@code default/greeter:grpc}. {@code {port}} is the port's name, or its number when the Service
 * port has no name. {@code {service}} and {@code {port}} are required: without them two Services or
 * two ports of one Service would silently share a cluster.
 */
public record ClusterNameTemplate(String template) {

  // Before DEFAULT: its constructor reads this.
  private static final Set<String> PLACEHOLDERS = Set.of("namespace", "service", "port");

  public static final ClusterNameTemplate DEFAULT = new ClusterNameTemplate("{namespace}/{service}:{port}");

  /** @throws IllegalArgumentException naming the first problem, in the words a config error shows */
  public ClusterNameTemplate {
    if (template == null || template.isBlank()) {
      throw new IllegalArgumentException("clusterName: must not be empty");
    }
    List<String> used = placeholders(template);
    for (String name : used) {
      if (!PLACEHOLDERS.contains(name)) {
        throw new IllegalArgumentException("clusterName: unknown placeholder '{" + name
            + "}' in '" + template + "', expected {namespace}, {service} and {port}");
      }
    }
    for (String required : List.of("service", "port")) {
      if (!used.contains(required)) {
        throw new IllegalArgumentException(
            "clusterName: '" + template + "' must contain {" + required + "}");
      }
    }
  }

  public String render(String namespace, String service, String port) {
    return template.replace("{namespace}", namespace).replace("{service}", service).replace("{port}", port);
  }

  private static List<String> placeholders(String template) {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int open = template.indexOf('{', from);
      if (open < 0) {
        return out;
      }
      int close = template.indexOf('}', open);
      if (close < 0) {
        throw new IllegalArgumentException("clusterName: unclosed '{' in '" + template + "'");
      }
      out.add(template.substring(open + 1, close));
      from = close + 1;
    }
  }

  @Override
  public String toString() {
    return template;
  }
}
