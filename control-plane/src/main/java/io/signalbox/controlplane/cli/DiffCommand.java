package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code signalbox diff A B}: what changed from epoch A to epoch B, resource by resource. */
@Command(name = "diff", mixinStandardHelpOptions = true,
    description = "Show what changed from one epoch to another: resources added (+), removed (-), changed (~), "
        + "and endpoint state transitions.")
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
    StringBuilder lines = new StringBuilder();
    diff.path("added").forEach(n -> lines.append("+ ").append(n.asText()).append('\n'));
    diff.path("removed").forEach(n -> lines.append("- ").append(n.asText()).append('\n'));
    diff.path("changed").forEach(n -> lines.append("~ ").append(n.asText()).append('\n'));
    for (JsonNode t : diff.path("endpoints")) {
      String was = Json.text(t, "from");
      String now = Json.text(t, "to");
      lines.append("  ").append(Json.text(t, "cluster")).append('/').append(Json.text(t, "endpoint")).append(": ")
          .append(was.isEmpty() ? "new" : was).append(" -> ").append(now.isEmpty() ? "removed" : now).append('\n');
    }
    options.out().print(lines);
    options.out().flush();
    return 0;
  }
}
