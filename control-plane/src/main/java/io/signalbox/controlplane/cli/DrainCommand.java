package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code signalbox drain CLUSTER ADDRESS:PORT}: no new work for the endpoint; with {@code --wait},
 * follows the drain until no client will send it new work ("safe to remove"), or exits 3.
 */
@Command(name = "drain", mixinStandardHelpOptions = true,
    description = "Drain an endpoint: clients send it no new work. The drain is stored and survives restarts.")
public final class DrainCommand implements Callable<Integer> {

  static final Duration POLL_EVERY = Duration.ofMillis(500);
  /** A progress line is printed when it changes, and at least this often while nothing does. */
  static final Duration REPEAT_UNCHANGED = Duration.ofSeconds(10);

  @Mixin ClientOptions options;

  @Parameters(index = "0", paramLabel = "CLUSTER", description = "The cluster.")
  String cluster;

  @Parameters(index = "1", paramLabel = "ADDRESS:PORT", converter = Arguments.Endpoint.class,
      description = "The endpoint; IPv6 as [::1]:8080.")
  String endpoint;

  @Option(names = "--reason", paramLabel = "R", description = "Why; recorded in the audit log.")
  String reason;

  @Option(names = "--deadline", paramLabel = "DURATION", converter = Arguments.DurationText.class,
      description = "How long existing work may take (e.g. 30s). Default: the cluster's drainTimeout.")
  String deadline;

  @Option(names = "--wait", description = "Wait until the endpoint is safe to remove (exit 3 on --timeout).")
  boolean waitUntilSafe;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "10m", description = "How long --wait waits. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() throws InterruptedException {
    String path = "/api/v1/clusters/" + AdminClient.segment(cluster) + "/endpoints/" + AdminClient.segment(endpoint)
        + "/drain";
    Map<String, String> body = new LinkedHashMap<>();
    if (reason != null) {
      body.put("reason", reason);
    }
    if (deadline != null) {
      body.put("deadline", deadline);
    }
    JsonNode accepted = options.client().post(path, body);
    String target = cluster + "/" + endpoint;
    if (!waitUntilSafe) {
      if (options.json()) {
        options.print(accepted);
      } else {
        options.println("draining " + target + " (deadline " + readable(Json.text(accepted, "deadline")) + ")");
      }
      return 0;
    }
    return follow(path, target);
  }

  private int follow(String path, String target) throws InterruptedException {
    long start = System.nanoTime();
    String lastKey = null;
    long lastPrinted = 0;
    while (true) {
      JsonNode progress = options.client().get(path);
      if (progress.path("safeToRemove").asBoolean()) {
        if (options.json()) {
          options.print(progress);
        } else {
          options.println("safe to remove " + target);
        }
        return 0;
      }
      long now = System.nanoTime();
      String key = Json.text(progress, "drainingEpoch") + "/" + Json.text(progress, "clientsAcked") + "/"
          + Json.text(progress, "clientsTotal") + "/" + progress.path("deadlinePassed").asBoolean();
      if (!options.json() && (!key.equals(lastKey) || now - lastPrinted >= REPEAT_UNCHANGED.toNanos())) {
        options.println("draining " + target + ": " + progress(progress));
        lastKey = key;
        lastPrinted = now;
      }
      long left = timeout.toNanos() - (now - start);
      if (left <= 0) {
        throw new CliFailure("timed out after " + Arguments.human(timeout) + " waiting for " + target
            + " to be safe to remove: " + progress(progress), CliFailure.TIMED_OUT);
      }
      Thread.sleep(Math.max(1, Math.min(POLL_EVERY.toMillis(), left / 1_000_000)));
    }
  }

  /** {@code 2 of 3 clients acknowledged epoch 14, 12s until the deadline}. */
  static String progress(JsonNode p) {
    String deadline;
    if (p.path("deadlinePassed").asBoolean()) {
      deadline = "deadline passed";
    } else {
      deadline = untilDeadline(Json.text(p, "deadline"));
    }
    if (Json.text(p, "drainingEpoch").isEmpty()) {
      return "waiting for the epoch that drains it, " + deadline;
    }
    int total = p.path("clientsTotal").asInt();
    return p.path("clientsAcked").asInt() + " of " + total + " client" + (total == 1 ? "" : "s")
        + " acknowledged epoch " + Json.text(p, "drainingEpoch") + ", " + deadline;
  }

  private static String untilDeadline(String deadline) {
    try {
      return Arguments.human(Duration.between(Instant.now(), Instant.parse(deadline))) + " until the deadline";
    } catch (DateTimeParseException e) {
      return "deadline " + deadline;
    }
  }

  /** The server writes durations as ISO-8601 ({@code PT30S}); operators read {@code 30s}. */
  static String readable(String isoDuration) {
    try {
      return Arguments.human(Duration.parse(isoDuration));
    } catch (DateTimeParseException e) {
      return isoDuration;
    }
  }
}
