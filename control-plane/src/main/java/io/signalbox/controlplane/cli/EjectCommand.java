package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code signalbox eject CLUSTER ADDRESS:PORT}: out for a while, within the cluster's ejection cap. */
@Command(name = "eject", mixinStandardHelpOptions = true,
    description = "Eject an endpoint for 30s (doubling for each earlier ejection, up to 5m), within the cluster's "
        + "maxEjectionPercent; it comes back through WARMING.")
public final class EjectCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Mixin EndpointTarget at;

  @Mixin Reason reason;

  @Override
  public Integer call() {
    JsonNode answer = options.client().post(at.path("eject"), reason.body());
    options.answered(answer, "ejected " + at.as(answer) + " for " + DrainCommand.readable(Json.text(answer, "for"))
        + (answer.path("note").isTextual() ? "\n" + answer.path("note").asText() : ""));
    return 0;
  }
}
