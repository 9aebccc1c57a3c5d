package io.signalbox.controlplane.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code signalbox confirm CLUSTER}: lets the update a guard holds for the cluster through;
 * {@code signalbox confirm --config}: lets a held config reload (one that removes too many
 * listeners, route configurations or clusters) through.
 */
@Command(name = "confirm", mixinStandardHelpOptions = true,
    description = "Let the update a guard holds back for a cluster (mass removal, last eligible endpoints), or a "
        + "held config reload (--config), through.")
public final class ConfirmCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  /** Exactly one of the two: a cluster's held update, or the held config reload. */
  static final class Target {
    @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
    String cluster;

    @Option(names = "--config", required = true,
        description = "Confirm the held config reload instead of a cluster's update.")
    boolean config;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    String path = target.config ? "/api/v1/config/confirm"
        : "/api/v1/clusters/" + AdminClient.segment(target.cluster) + "/confirm";
    options.answered(options.client().post(path, reason.body()), target.config ? "confirmed the held config reload"
        : "confirmed the held update of " + target.cluster);
    return 0;
  }
}
