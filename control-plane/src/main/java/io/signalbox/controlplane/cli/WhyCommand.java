package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code signalbox why CLUSTER [ADDRESS:PORT]}: the state an endpoint (or each endpoint of a
 * cluster) is served in, and every cause behind it, newest first.
 */
@Command(name = "why", mixinStandardHelpOptions = true,
    description = "Explain an endpoint's (or a cluster's) state: freeze, guard, override, lifecycle, source and "
        + "recorded transitions, newest first.")
public final class WhyCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Parameters(index = "1", arity = "0..1", paramLabel = "ADDRESS:PORT", converter = Arguments.Endpoint.class,
      description = "The endpoint; IPv6 as [::1]:8080. Without it, the whole cluster.")
  String endpoint;

  @Override
  public Integer call() {
    String path = "/api/v1/clusters/" + AdminClient.segment(cluster)
        + (endpoint == null ? "" : "/endpoints/" + AdminClient.segment(endpoint)) + "/why";
    JsonNode why = options.client().get(path);
    if (options.json()) {
      options.print(why);
      return 0;
    }
    options.println(headline(why));
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode cause : why.path("causes")) {
      rows.add(Table.cells(Arguments.instant(Json.text(cause, "at")), Json.text(cause, "kind"),
          Json.text(cause, "message")));
    }
    if (!rows.isEmpty()) {
      options.print(new Table(List.of("WHEN", "KIND", "CAUSE"), rows));
    }
    return 0;
  }

  /**
   * {@code greeter/10.0.0.1:8080: DRAINING in epoch 14, from file:/etc/endpoints.yaml}, or for a
   * cluster {@code greeter: 3 endpoints in epoch 14 (2 READY, 1 DRAINING)}.
   */
  static String headline(JsonNode why) {
    String epoch = Json.text(why, "epoch");
    String cluster = Json.text(why, "cluster");
    if (!Json.text(why, "endpoint").isEmpty()) {
      String target = cluster + "/" + Json.text(why, "endpoint");
      String state = Json.text(why, "state");
      return state.isEmpty() ? target + ": not served in epoch " + epoch
          : target + ": " + state + " in epoch " + epoch + ", from " + Json.text(why, "origin");
    }
    int total = 0;
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> state : why.path("states").properties()) {
      total += state.getValue().asInt();
      parts.add(state.getValue().asInt() + " " + state.getKey());
    }
    if (total == 0) {
      return cluster + ": no endpoints in epoch " + epoch;
    }
    return cluster + ": " + total + " endpoint" + (total == 1 ? "" : "s") + " in epoch " + epoch + " ("
        + String.join(", ", parts) + ")";
  }
}
