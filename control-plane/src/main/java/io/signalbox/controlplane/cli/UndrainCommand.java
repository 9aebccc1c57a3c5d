package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code signalbox undrain CLUSTER ADDRESS:PORT}: ends an operator drain; the sources' state applies again. */
@Command(name = "undrain", mixinStandardHelpOptions = true,
    description = "End an operator drain: the endpoint follows its source again.")
public final class UndrainCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Parameters(index = "1", paramLabel = "ADDRESS:PORT", converter = Arguments.Endpoint.class,
      description = "The endpoint; IPv6 as [::1]:8080.")
  String endpoint;

  @Override
  public Integer call() {
    JsonNode answer = options.client().delete("/api/v1/clusters/" + AdminClient.segment(cluster) + "/endpoints/"
        + AdminClient.segment(endpoint) + "/drain");
    if (options.json()) {
      options.print(answer);
    } else {
      options.println("undrained " + cluster + "/" + endpoint);
    }
    return 0;
  }
}
