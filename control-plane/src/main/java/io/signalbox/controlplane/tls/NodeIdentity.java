package io.signalbox.controlplane.tls;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code xds.tls.nodeIdentity}: the identity a node must prove with its client certificate, written
 * as a template over the node, e.g. {@code spiffe://example.org/ns/{nodeCluster}/sa/{nodeId}}. A
 * stream's node matches when the template, filled in with its {@code node.id} and {@code
 * node.cluster}, equals one of the certificate's URI SANs exactly.
 *
 * <p>A value that could change which part of the URI it fills ({@code /}, {@code ?}, {@code #},
 * {@code %}, whitespace, braces) is refused rather than substituted: with {@code /} allowed, the
 * holder of {@code .../ns/a/sa/b/sa/c} could claim either cluster {@code a} with node {@code b/sa/c}
 * or cluster {@code a/sa/b} with node {@code c}.
 */
public record NodeIdentity(String template) {

  public static final String NODE_ID = "{nodeId}";
  public static final String NODE_CLUSTER = "{nodeCluster}";
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{[^{}]*}");
  private static final Pattern UNSAFE = Pattern.compile("[/?#%{}\\s]");

  /** What a node must present, or why its fields cannot be checked at all. */
  public sealed interface Expected {
    /** The URI SAN the certificate must carry. */
    record Identity(String uri) implements Expected {}

    /** The node's fields cannot form an identity (empty, or a character that would move it in the URI). */
    record Unusable(String message) implements Expected {}
  }

  public NodeIdentity {
    List<String> problems = problems(template);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("bad node identity template '" + template + "': " + problems);
    }
  }

  /** Every reason {@code template} is not a usable template; empty when it is. */
  public static List<String> problems(String template) {
    List<String> problems = new ArrayList<>();
    if (template == null || template.isBlank()) {
      problems.add("must not be empty");
      return problems;
    }
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder literal = new StringBuilder();
    int last = 0;
    while (m.find()) {
      literal.append(template, last, m.start());
      last = m.end();
      if (!m.group().equals(NODE_ID) && !m.group().equals(NODE_CLUSTER)) {
        problems.add("unknown placeholder '" + m.group() + "' (use " + NODE_ID + " or " + NODE_CLUSTER + ")");
      }
    }
    literal.append(template.substring(last));
    if (literal.indexOf("{") >= 0 || literal.indexOf("}") >= 0) {
      problems.add("unbalanced '{' or '}'");
    }
    if (!template.contains(":")) {
      problems.add("must be a URI such as spiffe://example.org/" + NODE_ID + " (it is compared with URI SANs)");
    }
    return problems;
  }

  /** The identity a node with these fields must present. */
  public Expected expect(String nodeId, String nodeCluster) {
    String uri = template;
    if (template.contains(NODE_ID)) {
      String problem = unsafe("node.id", nodeId);
      if (problem != null) {
        return new Expected.Unusable(problem);
      }
      uri = uri.replace(NODE_ID, nodeId);
    }
    if (template.contains(NODE_CLUSTER)) {
      String problem = unsafe("node.cluster", nodeCluster);
      if (problem != null) {
        return new Expected.Unusable(problem);
      }
      uri = uri.replace(NODE_CLUSTER, nodeCluster);
    }
    return new Expected.Identity(uri);
  }

  private String unsafe(String field, String value) {
    if (value == null || value.isEmpty()) {
      return field + " is empty, but xds.tls.nodeIdentity '" + template + "' needs it";
    }
    Matcher m = UNSAFE.matcher(value);
    if (m.find()) {
      return field + " '" + value + "' cannot be checked against xds.tls.nodeIdentity '" + template
          + "': it contains '" + m.group() + "'";
    }
    return null;
  }
}
