package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code signalbox clients}: connected xDS clients, most behind first, {@code GET /api/v1/clients}. */
@Command(name = "clients", mixinStandardHelpOptions = true,
    description = "List connected xDS clients, most behind first: the epoch each holds, its lag, standing NACKs.")
public final class ClientsCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--group", paramLabel = "G", description = "Only clients of node group G ('none': without one).")
  String group;

  @Option(names = "--limit", paramLabel = "N", description = "At most N clients.")
  Integer limit;

  @Override
  public Integer call() {
    List<String> query = new ArrayList<>();
    if (group != null) {
      query.add("group=" + AdminClient.segment(group));
    }
    if (limit != null) {
      query.add("limit=" + limit);
    }
    JsonNode clients = options.client().get("/api/v1/clients" + (query.isEmpty() ? "" : "?" + String.join("&", query)));
    if (options.json()) {
      options.print(clients);
      return 0;
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode c : clients) {
      long lagEpochs = c.path("lagEpochs").asLong();
      String lag = lagEpochs == 0 ? "0" : lagEpochs + " (" + Math.round(c.path("lagSeconds").asDouble()) + "s)";
      rows.add(Table.cells(Json.text(c, "nodeId"), Json.text(c, "group"), Json.text(c, "zone"),
          Json.text(c, "heldEpoch"), lag, standingNacks(c)));
    }
    options.print(new Table(List.of("NODE", "GROUP", "ZONE", "EPOCH", "LAG", "NACK"), rows));
    return 0;
  }

  /** Each type whose latest NACK is newer than what it ACKed: {@code Cluster@42: message}. */
  private static String standingNacks(JsonNode client) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> type : client.path("types").properties()) {
      JsonNode nack = type.getValue().path("nack");
      if (nack.isObject() && nack.path("epoch").asLong() > type.getValue().path("ackedEpoch").asLong()) {
        String url = type.getKey();
        out.add(url.substring(url.lastIndexOf('.') + 1) + "@" + Json.text(nack, "epoch") + ": "
            + Json.text(nack, "message"));
      }
    }
    return String.join("; ", out);
  }
}
