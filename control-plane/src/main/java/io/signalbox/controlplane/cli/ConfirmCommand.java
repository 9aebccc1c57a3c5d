package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code signalbox confirm CLUSTER}: lets the update a guard holds for the cluster through. */
@Command(name = "confirm", mixinStandardHelpOptions = true,
    description = "Let the update a guard holds back for a cluster (mass removal, last eligible endpoints) through.")
public final class ConfirmCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
  String reason;

  @Override
  public Integer call() {
    Map<String, String> body = new LinkedHashMap<>();
    if (reason != null) {
      body.put("reason", reason);
    }
    JsonNode answer = options.client().post("/api/v1/clusters/" + AdminClient.segment(cluster) + "/confirm", body);
    if (options.json()) {
      options.print(answer);
    } else {
      options.println("confirmed the held update of " + cluster);
    }
    return 0;
  }
}
