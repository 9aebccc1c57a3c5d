package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code signalbox load CLUSTER}: what the clients' load reports say of one cluster, {@code GET
 * /api/v1/clusters/{cluster}/load}: per locality (and endpoint) the work issued and its share, the
 * outcome, the skew, drops, correlated errors, and which clients report or stopped.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Show a cluster's load as its clients report it: share of work, errors, skew, drops, reporters.")
public final class LoadCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Override
  public Integer call() {
    JsonNode load = options.client().get("/api/v1/clusters/" + AdminClient.segment(cluster) + "/load");
    if (options.json()) {
      options.print(load);
      return 0;
    }
    JsonNode clients = load.path("clients");
    if (load.path("from").isNull() || load.path("from").isMissingNode()) {
      options.println("cluster '" + cluster + "': no load report in the last 15 minutes"
          + (clients.isEmpty() ? " (no client reports for it: is loadReporting on?)" : ""));
    } else {
      options.println("cluster '" + cluster + "': " + Json.text(load, "from") + " to " + Json.text(load, "to")
          + " (" + Json.text(load, "intervalSeconds") + " s interval), summed over every client and replica");
      options.print(places("LOCALITY", load.path("localities")));
      if (!load.path("endpoints").isEmpty()) {
        options.print(places("ENDPOINT", load.path("endpoints")));
      }
      JsonNode skew = load.path("skew");
      options.println("skew (max/mean of " + Json.text(load, "skewOf") + "): "
          + (skew.isNumber() ? String.format(Locale.ROOT, "%.2f", skew.asDouble()) : "-"));
      List<String> drops = new ArrayList<>();
      for (Map.Entry<String, JsonNode> d : load.path("dropped").properties()) {
        drops.add(d.getKey() + " " + d.getValue().asLong());
      }
      options.println("dropped: " + (drops.isEmpty() ? "none" : String.join(", ", drops)));
    }
    if (!load.path("firstTraffic").isEmpty()) {
      options.print(firstTraffic(load.path("firstTraffic")));
    }
    JsonNode correlated = load.path("correlatedErrors");
    options.println("correlated errors: " + (correlated.path("raised").asBoolean() ? "RAISED: " : "no: ")
        + Json.text(correlated, "message"));
    if (!clients.isEmpty()) {
      Instant now = Instant.parse(Json.text(load, "at"));
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode c : clients) {
        Instant last = c.path("lastReport").isTextual() ? Instant.parse(c.path("lastReport").asText()) : null;
        rows.add(Table.cells(Json.text(c, "nodeId"), Json.text(c, "replicaId"),
            last == null ? "never" : Duration.between(last, now).toSeconds() + " s ago",
            c.path("stopped").asBoolean() ? "STOPPED" : "reporting"));
      }
      options.print(new Table(List.of("CLIENT", "REPLICA", "LAST REPORT", "STATE"), rows));
    }
    return 0;
  }

  private static Table places(String what, JsonNode places) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode p : places) {
      JsonNode rate = p.path("errorRate");
      rows.add(Table.cells(Json.text(p, "name"), Json.text(p, "issued"), percent(p.path("share").asDouble()),
          Json.text(p, "succeeded"), Json.text(p, "errored"), rate.isNumber() ? percent(rate.asDouble()) : "-",
          Json.text(p, "inFlight")));
    }
    return new Table(List.of(what, "ISSUED", "SHARE", "SUCCEEDED", "ERRORED", "ERROR RATE", "IN FLIGHT"), rows);
  }

  /**
   * Readiness to first traffic per endpoint that became READY: the delay is at most what is shown,
   * to within the reporting interval.
   */
  static Table firstTraffic(JsonNode readiness) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode r : readiness) {
      JsonNode delay = r.path("delayMs");
      rows.add(Table.cells(Json.text(r, "endpoint"), Json.text(r, "epoch"), Json.text(r, "readyAt"),
          delay.isNumber() ? String.format(Locale.ROOT, "<= %.1f s", delay.asLong() / 1000.0) : "not yet seen",
          delay.isNumber() ? Json.text(r, "seenIn") : "-"));
    }
    return new Table(List.of("READY ENDPOINT", "EPOCH", "READY AT", "FIRST TRAFFIC", "SEEN IN"), rows);
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
  }
}
