package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code signalbox config <client>}: what one client holds, {@code GET /api/v1/clients/{id}/config}. */
@Command(name = "config", mixinStandardHelpOptions = true,
    description = "Show what one xDS client was sent and ACKed (or NACKed), per type: each resource with its "
        + "version and the epoch it comes from; with --diff, what the current epoch would change for it.")
public final class ConfigCommand implements Callable<Integer> {

  /** Versions are SHA-256 in hex; this many characters tell them apart on a screen. */
  private static final int VERSION_CHARS = 12;

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLIENT", description = "The client's node id (see 'signalbox clients').")
  String client;

  @Option(names = "--type", paramLabel = "TYPE",
      description = "Only this type: CDS, EDS, LDS, RDS or a type URL.")
  String type;

  @Option(names = "--diff", description = "Also show what the current epoch adds (+), removes (-) and changes (~) "
      + "for this client, endpoint fields included.")
  boolean diff;

  @Override
  public Integer call() {
    String path = "/api/v1/clients/" + AdminClient.segment(client) + "/config"
        + (type == null ? "" : "?type=" + AdminClient.segment(type));
    JsonNode config = options.client().get(path);
    if (options.json()) {
      options.print(config);
      return 0;
    }
    StringBuilder out = new StringBuilder();
    String group = Json.text(config, "nodeCluster");
    out.append(Json.text(config, "nodeId")).append(" (").append(group.isEmpty() ? "no group" : "group " + group)
        .append(", ").append(config.path("delta").asBoolean() ? "delta" : "SotW").append(", replica ")
        .append(Json.text(config, "replicaId")).append(" stream ").append(Json.text(config, "streamId"))
        .append("); current epoch ").append(Json.text(config, "currentEpoch")).append('\n');
    if (config.path("streams").size() > 1) {
      // A node with several streams (grpc-go's one per xDS target, a reconnect, two replicas):
      // each with what it asked for; the types below are the newest stream's.
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode s : config.path("streams")) {
        StringBuilder asked = new StringBuilder();
        s.path("types").properties().forEach(e -> asked.append(asked.length() == 0 ? "" : "; ").append(e.getKey())
            .append(' ').append(subscribed(e.getValue())));
        rows.add(Table.cells("  " + Json.text(s, "streamId"), Json.text(s, "replicaId"),
            s.path("delta").asBoolean() ? "delta" : "SotW", asked.toString()));
      }
      out.append(new Table(List.of("  STREAM", "REPLICA", "VARIANT", "SUBSCRIBED"), rows).render());
    }
    for (JsonNode t : config.path("types")) {
      out.append(typeLine(t)).append('\n');
      if (t.path("resources").isArray()) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : t.path("resources")) {
          rows.add(Table.cells("  " + Json.text(r, "name"), shortVersion(Json.text(r, "version")),
              Json.text(r, "epoch")));
        }
        if (!rows.isEmpty()) {
          out.append(new Table(List.of("  RESOURCE", "VERSION", "EPOCH"), rows).render());
        }
      } else {
        out.append("  resources unknown: ").append(Json.text(t, "unavailable")).append('\n');
      }
      if (diff) {
        diffLines(t.path("diff"), out);
      }
    }
    options.out().print(out);
    options.out().flush();
    return 0;
  }

  /** {@code *} for the whole type, then the names asked for by name. */
  private static String subscribed(JsonNode s) {
    List<String> parts = new ArrayList<>();
    if (s.path("wildcard").asBoolean()) {
      parts.add("*");
    }
    s.path("names").forEach(n -> parts.add(n.asText()));
    return parts.isEmpty() ? "(nothing)" : String.join(",", parts);
  }

  /** {@code EDS: sent epoch 7, ACKed epoch 6; NACK of epoch 7 (standing): message} */
  private static String typeLine(JsonNode t) {
    StringBuilder line = new StringBuilder(Json.text(t, "type")).append(": sent epoch ").append(Json.text(t, "sentEpoch"))
        .append(version(Json.text(t, "sentEpoch"), Json.text(t, "sentVersion"))).append(", ACKed epoch ")
        .append(Json.text(t, "ackedEpoch")).append(version(Json.text(t, "ackedEpoch"), Json.text(t, "ackedVersion")));
    JsonNode nack = t.path("nack");
    if (nack.isObject()) {
      line.append("; NACK of epoch ").append(Json.text(nack, "epoch"))
          .append(nack.path("standing").asBoolean() ? " (standing)" : " (ACKed since)").append(": ")
          .append(Json.text(nack, "message"));
    }
    return line.toString();
  }

  private static void diffLines(JsonNode d, StringBuilder out) {
    if (!d.isObject()) {
      out.append("  no diff: what the client holds is unknown\n");
      return;
    }
    String epoch = Json.text(d, "toEpoch");
    if (d.path("upToDate").asBoolean()) {
      out.append("  up to date with epoch ").append(epoch).append('\n');
      return;
    }
    out.append("  to epoch ").append(epoch).append(":\n");
    d.path("added").forEach(n -> out.append("  + ").append(n.asText()).append('\n'));
    d.path("removed").forEach(n -> out.append("  - ").append(n.asText()).append('\n'));
    for (JsonNode c : d.path("changed")) {
      String name = Json.text(c, "name");
      if (c.path("fields").isEmpty()) {
        out.append("  ~ ").append(name).append(' ').append(shortVersion(Json.text(c, "heldVersion"))).append(" -> ")
            .append(shortVersion(Json.text(c, "currentVersion"))).append('\n');
      }
      c.path("fields").forEach(f -> out.append("  ~ ").append(name).append(' ').append(f.asText()).append('\n'));
    }
  }

  /**
   * A type's version_info is the number of the epoch that last changed it, so it is shown only
   * where it says something else (nothing sent yet, an adjusted offer).
   */
  private static String version(String epoch, String version) {
    return version.equals(epoch) ? "" : " (version " + shortVersion(version) + ")";
  }

  private static String shortVersion(String version) {
    if (version.isEmpty()) {
      return "none";
    }
    return version.length() <= VERSION_CHARS ? version : version.substring(0, VERSION_CHARS);
  }
}
