package io.signalbox.controlplane.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code signalbox freeze}: hold the current configuration; inputs are still validated and recorded. */
@Command(name = "freeze", mixinStandardHelpOptions = true,
    description = "Hold the current configuration: inputs are validated and recorded, no epoch is published.")
public final class FreezeCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    options.answered(options.client().post("/api/v1/freeze", reason.body()),
        "frozen: no epoch is published until 'signalbox unfreeze'");
    return 0;
  }

  /** {@code signalbox unfreeze}: publish again. */
  @Command(name = "unfreeze", mixinStandardHelpOptions = true, description = "Publish again after a freeze.")
  public static final class Unfreeze implements Callable<Integer> {

    @Mixin ClientOptions options;

    @Mixin Reason reason;

    @Override
    public Integer call() {
      options.answered(options.client().post("/api/v1/unfreeze", reason.body()), "unfrozen: publishing again");
      return 0;
    }
  }
}
