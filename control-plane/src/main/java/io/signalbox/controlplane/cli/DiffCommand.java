package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code signalbox diff A B}: what changed from epoch A to epoch B, resource by resource. */
@Command(name = "diff", mixinStandardHelpOptions = true,
    description = "Show what changed from one epoch to another: resources added (+), removed (-), changed (~, with "
        + "each endpoint field that changed: weight, zone, priority), and endpoint state transitions.")
public final class DiffCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "EPOCH_A", description = "The epoch to compare from.")
  long from;

  @Parameters(index = "1", paramLabel = "EPOCH_B", description = "The epoch to compare to.")
  long to;

  @Override
  public Integer call() {
    JsonNode diff = options.client().get("/api/v1/epochs/" + from + "/diff/" + to);
    if (options.json()) {
      options.print(diff);
      return 0;
    }
    int transitions = diff.path("endpoints").size();
    options.println("epoch " + from + " -> " + to + ": " + diff.path("added").size() + " added, "
        + diff.path("removed").size() + " removed, " + diff.path("changed").size() + " changed, " + transitions
        + " endpoint transition" + (transitions == 1 ? "" : "s"));
    options.out().print(lines(diff));
    options.out().flush();
    return 0;
  }

  /**
   * A diff's lines as {@code diff} prints them: {@code + / - / ~ TYPE/name}, a changed resource once
   * per field that changed, then each endpoint's state transition ({@code signalbox plan} prints its
   * diff with these too).
   */
  static String lines(JsonNode diff) {
    StringBuilder lines = new StringBuilder();
    diff.path("added").forEach(n -> lines.append("+ ").append(n.asText()).append('\n'));
    diff.path("removed").forEach(n -> lines.append("- ").append(n.asText()).append('\n'));
    for (JsonNode n : diff.path("changed")) {
      // A changed resource with endpoint field changes gets one line per change, each naming the
      // endpoint and the field: "~ ENDPOINT/greeter" alone does not say that a weight moved.
      boolean told = false;
      for (JsonNode f : diff.path("fields")) {
        if (Json.text(f, "resource").equals(n.asText())) {
          lines.append("~ ").append(n.asText()).append(' ').append(Json.text(f, "endpoint")).append(' ')
              .append(Json.text(f, "field")).append(' ').append(Json.text(f, "from")).append(" -> ")
              .append(Json.text(f, "to")).append('\n');
          told = true;
        }
      }
      // The same for a cluster, route configuration or listener: the proto field's path and both values.
      for (JsonNode f : diff.path("resourceFields")) {
        if (Json.text(f, "resource").equals(n.asText())) {
          lines.append("~ ").append(n.asText()).append(' ').append(Json.text(f, "field")).append(' ')
              .append(Json.text(f, "from")).append(" -> ").append(Json.text(f, "to")).append('\n');
          told = true;
        }
      }
      if (!told) {
        lines.append("~ ").append(n.asText()).append('\n');
      }
    }
    for (JsonNode t : diff.path("endpoints")) {
      String was = Json.text(t, "from");
      String now = Json.text(t, "to");
      lines.append("  ").append(Json.text(t, "cluster")).append('/').append(Json.text(t, "endpoint")).append(": ")
          .append(was.isEmpty() ? "new" : was).append(" -> ").append(now.isEmpty() ? "removed" : now).append('\n');
    }
    return lines.toString();
  }
}
