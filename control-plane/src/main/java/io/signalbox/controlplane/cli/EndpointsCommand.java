package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code signalbox endpoints CLUSTER}: a cluster's endpoints as published, with operator overrides. */
@Command(name = "endpoints", mixinStandardHelpOptions = true,
    description = "List a cluster's endpoints: state, where each came from, operator overrides.")
public final class EndpointsCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Override
  public Integer call() {
    JsonNode endpoints = options.client().get("/api/v1/clusters/" + AdminClient.segment(cluster) + "/endpoints");
    if (options.json()) {
      options.print(endpoints);
      return 0;
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode e : endpoints) {
      rows.add(Table.cells(Json.text(e, "endpoint"), Json.text(e, "zone"), Json.text(e, "weight"),
          Json.text(e, "priority"), Json.text(e, "state"), Json.text(e, "origin"), Json.text(e, "override")));
    }
    options.print(new Table(List.of("ENDPOINT", "ZONE", "WEIGHT", "PRIORITY", "STATE", "ORIGIN", "OVERRIDE"), rows));
    return 0;
  }
}
