package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code signalbox rollback [--to N]}: publishes a new epoch with the listeners, routes and
 * clusters of the last safe epoch (or N); drains and removals still hold.
 */
@Command(name = "rollback", mixinStandardHelpOptions = true,
    description = "Publish a new epoch whose listeners, routes and clusters are those of the last safe epoch "
        + "(or --to N). Endpoints keep following their sources: nothing drained or removed comes back.")
public final class RollbackCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--to", paramLabel = "N", description = "The epoch to restore. Default: the last safe one.")
  Long to;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    Map<String, Object> body = reason.body();
    if (to != null) {
      body.put("to", to);
    }
    JsonNode answer = options.client().post("/api/v1/rollback", body);
    if (options.json()) {
      options.print(answer);
    } else {
      int restored = answer.path("restored").asInt();
      options.println("rolling back to epoch " + Json.text(answer, "to") + ": " + restored + " resource"
          + (restored == 1 ? "" : "s") + " restored in a new epoch");
    }
    return 0;
  }
}
