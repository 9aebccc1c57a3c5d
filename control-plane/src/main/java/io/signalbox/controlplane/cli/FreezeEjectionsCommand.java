package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code signalbox freeze-ejections}: no ejection a policy or outlier system asks for (through a
 * source) is published; each is held and shown. An operator's {@code eject} still applies.
 */
@Command(name = "freeze-ejections", mixinStandardHelpOptions = true,
    description = "Hold every ejection a source asks for (policy or outlier driven) until 'signalbox "
        + "unfreeze-ejections'; an operator's eject still applies.")
public final class FreezeEjectionsCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    options.answered(options.client().post("/api/v1/freeze-ejections", reason.body()),
        "ejections frozen: none a source asks for is published until 'signalbox unfreeze-ejections'");
    return 0;
  }

  /** {@code signalbox unfreeze-ejections}: ejections are published again. */
  @Command(name = "unfreeze-ejections", mixinStandardHelpOptions = true,
      description = "Publish ejections again after 'signalbox freeze-ejections'.")
  public static final class Unfreeze implements Callable<Integer> {

    @Mixin ClientOptions options;

    @Mixin Reason reason;

    @Override
    public Integer call() {
      JsonNode answer = options.client().post("/api/v1/unfreeze-ejections", reason.body());
      options.answered(answer, answer.path("wasFrozen").asBoolean()
          ? "ejections unfrozen: held ejections are published" : "ejections were not frozen");
      return 0;
    }
  }
}
