package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code signalbox history <client>}: one client's streams over time, {@code GET /api/v1/clients/{id}/history}. */
@Command(name = "history", mixinStandardHelpOptions = true,
    description = "Show one xDS client's streams over time, from the stream history: each response it was sent "
        + "(type, epoch, version) and its answer, ACK or NACK with the client's message.")
public final class HistoryCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLIENT", description = "The client's node id (see 'signalbox clients').")
  String client;

  @Option(names = "--since", paramLabel = "TIME",
      description = "From this time on: an instant (2026-12-07T05:00:00Z) or how long ago (30m). Default: 1h.")
  String since;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only this type: CDS, EDS, LDS, RDS or a type URL.")
  String type;

  @Override
  public Integer call() {
    StringBuilder query = new StringBuilder();
    if (since != null) {
      query.append("?since=").append(AdminClient.segment(since));
    }
    if (type != null) {
      query.append(query.length() == 0 ? '?' : '&').append("type=").append(AdminClient.segment(type));
    }
    JsonNode history = options.client().get("/api/v1/clients/" + AdminClient.segment(client) + "/history" + query);
    if (options.json()) {
      options.print(history);
      return 0;
    }
    StringBuilder out = new StringBuilder();
    out.append(Json.text(history, "nodeId")).append(" since ").append(Arguments.instant(Json.text(history, "since")))
        .append(history.path("truncated").asBoolean() ? " (older events left out)" : "").append('\n');
    if (history.path("streams").isEmpty()) {
      out.append("  no events in this window\n");
    }
    for (JsonNode s : history.path("streams")) {
      out.append("stream ").append(Json.text(s, "streamId")).append(" on ").append(Json.text(s, "replicaId"))
          .append(s.path("closedAt").isTextual() ? ", closed " + Arguments.instant(Json.text(s, "closedAt")) : "")
          .append('\n');
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode r : s.path("responses")) {
        String answer = r.path("answer").isTextual() ? Json.text(r, "answer") : "-";
        rows.add(Table.cells("  " + Json.text(r, "type"), Json.text(r, "epoch"), Json.text(r, "version"),
            r.path("sentAt").isTextual() ? Arguments.instant(Json.text(r, "sentAt")) : "before",
            answer, r.path("answeredAt").isTextual() ? Arguments.instant(Json.text(r, "answeredAt")) : "",
            Json.text(r, "message")));
      }
      out.append(new Table(List.of("  TYPE", "EPOCH", "VERSION", "SENT", "ANSWER", "AT", "MESSAGE"), rows).render());
    }
    options.out().print(out);
    options.out().flush();
    return 0;
  }
}
