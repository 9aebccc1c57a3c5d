package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code signalbox undrain CLUSTER ADDRESS:PORT}: ends an operator drain; the sources' state applies again. */
@Command(name = "undrain", mixinStandardHelpOptions = true,
    description = "End an operator drain: the endpoint follows its source again.")
public final class UndrainCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Mixin EndpointTarget at;

  @Override
  public Integer call() {
    JsonNode answer = options.client().delete(at.path("drain"));
    if (options.json()) {
      options.print(answer);
    } else {
      options.println("undrained " + at.as(answer));
    }
    return 0;
  }
}
