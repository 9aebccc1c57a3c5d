package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code signalbox freeze-ejections}: no ejection a policy or outlier system asks for (through a
 * source) is published; each is held and shown. An operator's {@code eject} still applies.
 */
@Command(name = "freeze-ejections", mixinStandardHelpOptions = true,
    description = "Hold every ejection a source asks for (policy or outlier driven) until 'signalbox "
        + "unfreeze-ejections'; an operator's eject still applies.")
public final class FreezeEjectionsCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
  String reason;

  @Override
  public Integer call() {
    JsonNode answer = options.client().post("/api/v1/freeze-ejections", body(reason));
    if (options.json()) {
      options.print(answer);
    } else {
      options.println("ejections frozen: none a source asks for is published until 'signalbox unfreeze-ejections'");
    }
    return 0;
  }

  static Map<String, String> body(String reason) {
    Map<String, String> body = new LinkedHashMap<>();
    if (reason != null) {
      body.put("reason", reason);
    }
    return body;
  }

  /** {@code signalbox unfreeze-ejections}: ejections are published again. */
  @Command(name = "unfreeze-ejections", mixinStandardHelpOptions = true,
      description = "Publish ejections again after 'signalbox freeze-ejections'.")
  public static final class Unfreeze implements Callable<Integer> {

    @Mixin ClientOptions options;

    @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
    String reason;

    @Override
    public Integer call() {
      JsonNode answer = options.client().post("/api/v1/unfreeze-ejections", body(reason));
      if (options.json()) {
        options.print(answer);
      } else {
        options.println(answer.path("wasFrozen").asBoolean()
            ? "ejections unfrozen: held ejections are published" : "ejections were not frozen");
      }
      return 0;
    }
  }
}
