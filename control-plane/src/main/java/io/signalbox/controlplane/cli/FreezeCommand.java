package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code signalbox freeze}: hold the current configuration; inputs are still validated and recorded. */
@Command(name = "freeze", mixinStandardHelpOptions = true,
    description = "Hold the current configuration: inputs are validated and recorded, no epoch is published.")
public final class FreezeCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
  String reason;

  @Override
  public Integer call() {
    Map<String, String> body = new LinkedHashMap<>();
    if (reason != null) {
      body.put("reason", reason);
    }
    JsonNode answer = options.client().post("/api/v1/freeze", body);
    if (options.json()) {
      options.print(answer);
    } else {
      options.println("frozen: no epoch is published until 'signalbox unfreeze'");
    }
    return 0;
  }

  /** {@code signalbox unfreeze}: publish again. */
  @Command(name = "unfreeze", mixinStandardHelpOptions = true, description = "Publish again after a freeze.")
  public static final class Unfreeze implements Callable<Integer> {

    @Mixin ClientOptions options;

    @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
    String reason;

    @Override
    public Integer call() {
      Map<String, String> body = new LinkedHashMap<>();
      if (reason != null) {
        body.put("reason", reason);
      }
      JsonNode answer = options.client().post("/api/v1/unfreeze", body);
      if (options.json()) {
        options.print(answer);
      } else {
        options.println("unfrozen: publishing again");
      }
      return 0;
    }
  }
}
