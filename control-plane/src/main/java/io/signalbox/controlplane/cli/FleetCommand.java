package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code signalbox fleet --at T}: what every client held at a time, {@code GET /api/v1/fleet?at=T}. */
@Command(name = "fleet", mixinStandardHelpOptions = true,
    description = "Show what every xDS client held at a time, from the stream history: the epoch being served then, "
        + "how many clients held it, and per client stream the epoch it held; with --holding, which clients held "
        + "one resource version then (and which were sent it and NACKed it).")
public final class FleetCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--at", paramLabel = "TIME", required = true,
      description = "The time: an instant (2026-12-07T05:00:00Z) or how long ago (10m).")
  String at;

  @Option(names = "--holding", paramLabel = "TYPE/NAME@VERSION",
      description = "A resource version, e.g. ROUTE/greeter@3a9f0c (a prefix of the version is enough).")
  String holding;

  @Override
  public Integer call() {
    String path = "/api/v1/fleet?at=" + AdminClient.segment(at)
        + (holding == null ? "" : "&holding=" + AdminClient.segment(holding));
    JsonNode fleet = options.client().get(path);
    if (options.json()) {
      options.print(fleet);
      return 0;
    }
    StringBuilder out = new StringBuilder();
    out.append("at ").append(Arguments.instant(Json.text(fleet, "at"))).append(": epoch ")
        .append(Json.text(fleet, "epoch")).append(" served, held by ").append(Json.text(fleet, "converged"))
        .append(" of ").append(Json.text(fleet, "clients")).append(" client streams\n");
    JsonNode h = fleet.path("holding");
    if (h.isObject()) {
      out.append(Json.text(h, "type")).append('/').append(Json.text(h, "name")).append('@').append(Json.text(h, "version"))
          .append(": held by ").append(h.path("clients").size()).append(names(h.path("clients")))
          .append("; sent and NACKed by ").append(h.path("refused").size()).append(names(h.path("refused")))
          .append('\n');
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode s : fleet.path("streams")) {
      StringBuilder nacks = new StringBuilder();
      s.path("types").properties().forEach(t -> {
        JsonNode nack = t.getValue().path("nack");
        if (nack.isObject()) {
          nacks.append(nacks.length() == 0 ? "" : "; ").append(t.getKey()).append(" NACKed epoch ")
              .append(Json.text(nack, "epoch")).append(": ").append(Json.text(nack, "message"));
        }
      });
      rows.add(Table.cells(Json.text(s, "nodeId"), Json.text(s, "streamId"), Json.text(s, "replicaId"),
          s.path("epoch").asLong() == 0 ? "none" : Json.text(s, "epoch"), s.path("converged").asBoolean() ? "yes" : "no",
          nacks.toString()));
    }
    out.append(new Table(List.of("CLIENT", "STREAM", "REPLICA", "HELD", "CONVERGED", "NACK"), rows).render());
    options.out().print(out);
    options.out().flush();
    return 0;
  }

  private static String names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.forEach(n -> names.add(n.asText()));
    return names.isEmpty() ? "" : " (" + String.join(", ", names) + ")";
  }
}
