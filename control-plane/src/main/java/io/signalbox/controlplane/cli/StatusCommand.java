package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code signalbox status}: the writer's state, {@code GET /api/v1/status}. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show the newest epoch, the last safe one, whether publishing is frozen, sources and store.")
public final class StatusCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Override
  public Integer call() {
    JsonNode s = options.client().get("/api/v1/status");
    if (options.json()) {
      options.print(s);
      return 0;
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(Table.cells("epoch", Json.text(s, "epoch")));
    rows.add(Table.cells("last safe epoch", Json.text(s, "lastSafeEpoch")));
    rows.add(Table.cells("frozen", yesNo(s.path("frozen").asBoolean())));
    rows.add(Table.cells("pending publish", yesNo(s.path("pendingPublish").asBoolean())));
    JsonNode ejectionFreeze = s.path("ejectionFreeze");
    rows.add(Table.cells("ejections frozen", ejectionFreeze.isObject()
        ? "yes, by " + Json.text(ejectionFreeze, "actor") + reasonOf(ejectionFreeze) : "no"));
    // What is held back from the served epoch and what releases it: a drain a guard held looked
    // fine here while only the JSON said so (issue 42). The words are the server's.
    for (JsonNode hold : s.path("holds")) {
      rows.add(Table.cells("held", Json.text(hold, "kind") + " " + Json.text(hold, "subject") + ": "
          + Json.text(hold, "message") + " [" + Json.text(hold, "rule") + "]"));
      rows.add(Table.cells("", "released by " + Json.text(hold, "release")));
    }
    for (JsonNode drop : s.path("drops")) {
      rows.add(Table.cells("shedding", Json.text(drop, "cluster") + " drops " + Json.text(drop, "percent") + "% as "
          + Json.text(drop, "category") + " (by " + Json.text(drop, "actor") + reasonOf(drop) + ")"));
    }
    for (JsonNode drop : s.path("automaticDrops")) {
      rows.add(Table.cells("shedding", Json.text(drop, "cluster") + " drops " + Json.text(drop, "percent") + "% as "
          + Json.text(drop, "category") + " (automatic: " + Json.text(drop, "cause") + ")"));
    }
    rows.addAll(servedDiffers(s));
    rows.add(Table.cells("store", s.path("storeAvailable").asBoolean(true) ? "available" : "UNAVAILABLE"));
    rows.add(Table.cells("epoch created", Json.text(s, "epochCreatedAt")));
    rows.add(Table.cells("clients", Json.text(s, "clients")));
    for (Map.Entry<String, JsonNode> source : s.path("sources").properties()) {
      rows.add(Table.cells("source", source.getKey() + " " + source.getValue().asText()));
      // Why it is not FRESH (a YAML syntax error, a FIFO in place of the file): the table must say
      // what the JSON says, or an operator sees FAILED and nothing to act on (issue 29).
      for (JsonNode problem : s.path("sourceProblems").path(source.getKey())) {
        rows.add(Table.cells("", problem.asText()));
      }
    }
    JsonNode rejection = s.path("lastRejection");
    if (rejection.isObject()) {
      String about = rejection.path("inputs").isArray() && !rejection.path("inputs").isEmpty()
          ? " (about " + String.join(", ", texts(rejection.path("inputs"))) + ")" : "";
      String superseded = rejection.path("supersededAt").isTextual()
          ? "; superseded at " + rejection.path("supersededAt").asText() + ", the input is valid again" : "";
      rows.add(Table.cells("last rejection",
          Json.text(rejection, "at") + " " + Json.text(rejection, "cause") + about + superseded));
      for (JsonNode v : rejection.path("violations")) {
        rows.add(Table.cells("", v.asText()));
      }
    }
    // Raised by the clients' load reports: most localities of a cluster erring at once.
    for (JsonNode correlated : s.path("correlatedErrors")) {
      rows.add(Table.cells("correlated errors", correlated.asText()));
    }
    for (JsonNode change : s.path("pendingRestart")) {
      rows.add(Table.cells("restart needed", Json.text(change, "key") + ": takes effect at restart (running "
          + Json.text(change, "running") + ", configured " + Json.text(change, "configured") + ")"));
    }
    options.print(new Table(List.of("", ""), rows));
    return 0;
  }

  /**
   * {@code served differs} rows: what the served configuration has that the inputs do not, since
   * when and how to go forward (a rollback, the freeze, a held config); {@code epochs} prints them too.
   */
  static List<List<String>> servedDiffers(JsonNode status) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode d : status.path("servedDiffers")) {
      rows.add(Table.cells("served differs", Json.text(d, "says")
          + (d.path("since").isTextual() ? " since " + d.path("since").asText() : "")));
      rows.add(Table.cells("", "forward: " + Json.text(d, "forward")));
    }
    return rows;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static String reasonOf(JsonNode node) {
    String reason = node.path("reason").asText("");
    return reason.isEmpty() ? "" : ": " + reason;
  }

  private static String yesNo(boolean value) {
    return value ? "yes" : "no";
  }
}
