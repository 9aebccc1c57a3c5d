package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalbox.yaml.StrictYaml;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code signalbox timeline}: what happened, oldest first, {@code GET /api/v1/timeline}. */
@Command(name = "timeline", mixinStandardHelpOptions = true,
    description = "What happened, oldest first: epochs and their causes, rejections, holds, confirmations, drains, "
        + "sheds, NACKs, rollbacks, leader changes and source failures, with who and why.")
public final class TimelineCommand implements Callable<Integer> {

  @Mixin ClientOptions options;

  @Option(names = "--since", paramLabel = "WHEN", converter = Since.class,
      description = "How far back: a duration (30m, 1h) or a UTC time (2025-01-02T03:04:05Z); the server's default is 1h.")
  String since;

  @Option(names = "--limit", paramLabel = "N", description = "At most the newest N events (1-1000; the server's default is 200).")
  Integer limit;

  /** A duration or a time, checked before anything is sent. */
  static final class Since implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      String text = value.strip();
      if (StrictYaml.parseDuration(text).isPresent()) {
        return text;
      }
      try {
        Instant.parse(text);
        return text;
      } catch (DateTimeParseException e) {
        throw new TypeConversionException("expected a duration like 30m or 1h, or a UTC time like "
            + "2025-01-02T03:04:05Z, was '" + value + "'");
      }
    }
  }

  @Override
  public Integer call() {
    List<String> query = new ArrayList<>();
    if (since != null) {
      query.add("since=" + AdminClient.segment(since));
    }
    if (limit != null) {
      query.add("limit=" + limit);
    }
    JsonNode timeline = options.client().get("/api/v1/timeline" + (query.isEmpty() ? "" : "?" + String.join("&", query)));
    if (options.json()) {
      options.print(timeline);
      return 0;
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode e : timeline.path("events")) {
      rows.add(Table.cells(Arguments.instant(Json.text(e, "at")), Json.text(e, "kind"), Json.text(e, "actor"),
          Json.text(e, "action"), Json.text(e, "target"), Json.text(e, "reason")));
    }
    options.print(new Table(List.of("TIME", "KIND", "ACTOR", "ACTION", "TARGET", "REASON"), rows));
    if (timeline.path("truncated").asBoolean()) {
      options.println("(older events since " + Arguments.instant(Json.text(timeline, "since"))
          + " are not listed: raise --limit or shorten --since)");
    }
    return 0;
  }
}
