package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan as {@code signalbox plan} prints it: a first line with the epoch it was made against and
 * the outcome, the diff as {@code diff} prints it, then one line per hold, per changed resource's
 * recipients, per client-kind warning and per changed cluster's capacity. The problems of invalid
 * inputs go to stderr one per line, as {@code validate} prints them.
 */
final class PlanText {

  private PlanText() {}

  static void print(JsonNode plan, PrintWriter out, PrintWriter err) {
    plan.path("verdict").path("errors").forEach(e -> err.println(ValidateCommand.oneLine(e.asText())));
    err.flush();
    long epoch = plan.path("servedEpoch").asLong();
    String outcome = Json.text(plan, "outcome");
    JsonNode diff = plan.path("diff");
    StringBuilder text = new StringBuilder("plan against epoch " + epoch + ": ");
    switch (outcome) {
      case "INVALID" -> text.append("invalid, ").append(plural(plan.path("verdict").path("errors").size(), "problem"));
      case "NO_CHANGE" -> text.append("no change");
      default -> text.append(diff.path("added").size()).append(" added, ").append(diff.path("removed").size())
          .append(" removed, ").append(diff.path("changed").size()).append(" changed")
          .append(plan.path("holds").isEmpty() ? "" : ", held");
    }
    text.append('\n');
    plan.path("verdict").path("warnings").forEach(w -> text.append(ValidateCommand.oneLine(w.asText())).append('\n'));
    if (!diff.isMissingNode() && !diff.isNull()) {
      text.append(DiffCommand.lines(diff));
    }
    for (JsonNode h : plan.path("holds")) {
      text.append("held: ").append(h.path("message").asText()).append(" [").append(Json.text(h, "rule"))
          .append("]; ").append(Json.text(h, "releasedBy")).append('\n');
    }
    for (JsonNode r : plan.path("recipients")) {
      text.append("sent to: ").append(Json.text(r, "resource")).append(" (").append(Json.text(r, "change"))
          .append("): ").append(plural(r.path("clients").asInt(), "client"));
      if (r.path("clients").asInt() > 0) {
        text.append("; groups ").append(counts(r.path("groups"))).append("; waves ").append(counts(r.path("waves")));
      }
      text.append('\n');
    }
    plan.path("clientKinds").forEach(k -> text.append("clients: ").append(k.asText()).append('\n'));
    for (JsonNode c : plan.path("capacity")) {
      text.append("capacity: ").append(Json.text(c, "cluster")).append(": eligible ")
          .append(capacity(c.path("before"))).append(" -> ").append(capacity(c.path("after")));
      JsonNode demand = c.path("demandRps");
      text.append(", demand ").append(demand.isNumber() ? String.format(java.util.Locale.ROOT, "%.1f rps",
          demand.asDouble()) : "not reported").append(", drop ").append(Json.text(c, "dropNow")).append(" -> ")
          .append(Json.text(c, "dropAfter")).append(": ").append(Json.text(c, "says"));
      drains(text, "; drains started: ", c.path("drainsStarted"));
      drains(text, "; drains cut short: ", c.path("drainsCutShort"));
      text.append('\n');
    }
    out.print(text);
    out.flush();
  }

  /** {@code 4 endpoints (400 rps)}, or {@code 4 endpoints (capacity unknown)}. */
  private static String capacity(JsonNode c) {
    return plural(c.path("eligible").asInt(), "endpoint") + " ("
        + (c.path("rps").isNumber() ? c.path("rps").asLong() + " rps" : "capacity unknown") + ")";
  }

  private static void drains(StringBuilder text, String label, JsonNode endpoints) {
    if (!endpoints.isEmpty()) {
      List<String> keys = new ArrayList<>();
      endpoints.forEach(e -> keys.add(e.asText()));
      text.append(label).append(String.join(", ", keys));
    }
  }

  /** {@code web 2, batch 1} */
  private static String counts(JsonNode byName) {
    List<String> parts = new ArrayList<>();
    byName.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asInt()));
    return String.join(", ", parts);
  }

  private static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
