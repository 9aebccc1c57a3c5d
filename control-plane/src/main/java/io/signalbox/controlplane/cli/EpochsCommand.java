package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code signalbox epochs}: published epochs, newest first, {@code GET /api/v1/epochs}. */
@Command(name = "epochs", mixinStandardHelpOptions = true, description = "List published epochs, newest first.")
public final class EpochsCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--limit", paramLabel = "N", description = "At most N epochs (1-1000; the server's default is 50).")
  Integer limit;

  @Override
  public Integer call() {
    JsonNode epochs = options.client().get("/api/v1/epochs" + (limit == null ? "" : "?limit=" + limit));
    if (options.json()) {
      options.print(epochs);
      return 0;
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode e : epochs) {
      rows.add(Table.cells(Json.text(e, "epoch"), Json.text(e, "status"), Json.text(e, "createdAt"),
          Json.text(e, "cause"), Json.text(e, "reason")));
    }
    options.print(new Table(List.of("EPOCH", "STATUS", "CREATED", "CAUSE", "REASON"), rows));
    // The newest epoch may not be what the inputs say (a rollback, the freeze): say so under the list.
    List<List<String>> differs = StatusCommand.servedDiffers(options.client().get("/api/v1/status"));
    if (!differs.isEmpty()) {
      options.println("");
      options.print(new Table(List.of("", ""), differs));
    }
    return 0;
  }
}
