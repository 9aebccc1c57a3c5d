package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code signalbox drain CLUSTER ADDRESS:PORT}: no new work for the endpoint; with {@code --wait},
 * follows the drain until no client will send it new work and none has work on it ("safe to remove"),
 * or exits 3.
 */
@Command(name = "drain", mixinStandardHelpOptions = true,
    description = "Drain an endpoint: clients send it no new work. The drain is stored and survives restarts.")
public final class DrainCommand implements Callable<Integer> {

  static final Duration POLL_EVERY = Duration.ofMillis(500);
  /** How long the command looks for the epoch that carries the drain, or a hold, before it answers. */
  static final Duration SETTLE = Duration.ofSeconds(5);
  static final Duration SETTLE_POLL = Duration.ofMillis(100);

  /**
   * Why a stored drain is not being published: a guard's hold of its cluster, or the freeze; and
   * what releases it, in the server's words ({@code status.holds}), which {@code status} prints too.
   */
  record Hold(String rule, String message, String release) {
    /** {@code held by guard.min-eligible: cluster 'greeter': ...}. */
    String describe() {
      return rule.equals(FROZEN) ? "held: " + message : "held by " + rule + ": " + message;
    }
  }

  static final String FROZEN = "freeze";

  @Mixin ClientOptions options;

  @Mixin EndpointTarget at;

  @Mixin Reason reason;

  @Option(names = "--deadline", paramLabel = "DURATION", converter = Arguments.DurationText.class,
      description = "The drain's own deadline, kept by the server: how long existing work on the endpoint may take "
          + "(e.g. 30s) before it counts as safe to remove. Default: the cluster's drainTimeout. A drain still held "
          + "by a guard when it passes never took effect: --wait then exits 3.")
  String deadline;

  @Option(names = "--wait", description = "Wait until the endpoint is safe to remove: every client ACKed the "
      + "draining epoch, and either every client reports (load reporting) that it was idle there for one interval "
      + "or the deadline passed (exit 3 when --timeout runs out first, or the deadline passes while the drain is "
      + "held).")
  boolean waitUntilSafe;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "10m", description = "How long this command waits with --wait; the drain itself goes on "
          + "when it gives up. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  /** The drained endpoint as status names it (its own address); set once the drain is accepted. */
  private String subject;

  @Override
  public Integer call() throws InterruptedException {
    String path = at.path("drain");
    Map<String, Object> body = reason.body();
    if (deadline != null) {
      body.put("deadline", deadline);
    }
    long start = System.nanoTime();
    JsonNode accepted = options.client().post(path, body);
    String target = at.as(accepted);
    subject = at.subject(accepted);
    Hold hold = settle(path);
    if (!waitUntilSafe) {
      if (hold != null) {
        throw CliFailure.failed("drain of " + target + " is " + hold.describe() + "; " + remedy(hold));
      }
      if (options.json()) {
        options.print(accepted);
      } else {
        options.println("draining " + target + " (deadline " + readable(Json.text(accepted, "deadline")) + ")");
      }
      return 0;
    }
    return follow(path, target, start);
  }

  /**
   * Waits (at most {@link #SETTLE}) until an epoch carries the drain, or something holds it back:
   * the server accepts a drain before the writer builds the epoch, and only that build finds out
   * whether a guard (the cluster's last eligible endpoint, say) holds it.
   *
   * @return the hold, or null once the drain is published (or nothing is known within SETTLE)
   */
  private Hold settle(String path) throws InterruptedException {
    long until = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      if (!Json.text(options.client().get(path), "drainingEpoch").isEmpty()) {
        return null;
      }
      Hold hold = hold();
      if (hold != null || System.nanoTime() >= until) {
        return hold;
      }
      Thread.sleep(SETTLE_POLL.toMillis());
    }
  }

  /** What holds the cluster back now, from {@code GET /api/v1/status}: a guard, or the freeze. */
  private Hold hold() {
    JsonNode status = options.client().get("/api/v1/status");
    String release = "'signalbox undrain " + at.cluster + " " + at.endpoint + "' withdraws it";
    for (JsonNode hold : status.path("holds")) {
      if (Json.text(hold, "kind").equals("drain") && Json.text(hold, "subject").equals(subject)) {
        release = Json.text(hold, "release");
      }
    }
    for (JsonNode held : status.path("held")) {
      if (Json.text(held, "cluster").equals(at.cluster)) {
        return new Hold(Json.text(held, "rule"), Json.text(held, "message"), release);
      }
    }
    if (status.path("frozen").asBoolean()) {
      return new Hold(FROZEN, "publishing is frozen", release);
    }
    return null;
  }

  /**
   * Everything that lets a held drain through, printed once while {@code --wait} keeps waiting: an
   * operator who sees only "held by" does not know that the wait may never end on its own.
   */
  static String releases(Hold hold) {
    return "  released by " + hold.release() + "; waiting";
  }

  private static String remedy(Hold hold) {
    return "the drain is stored; " + hold.release();
  }

  private int follow(String path, String target, long start) throws InterruptedException {
    Hold explained = null;
    ProgressLine line = new ProgressLine(options.out(), !options.json() && ProgressLine.stdoutIsTerminal());
    while (true) {
      JsonNode progress = options.client().get(path);
      if (progress.path("safeToRemove").asBoolean()) {
        line.end();
        if (options.json()) {
          options.print(progress);
        } else {
          options.println("safe to remove " + target + ": " + Json.text(progress, "verdict"));
        }
        return 0;
      }
      // Only a drain not yet in an epoch can be held; once published, its progress is the story.
      Hold hold = Json.text(progress, "drainingEpoch").isEmpty() ? hold() : null;
      String now = hold != null ? hold.describe() : progress(progress);
      String state = hold != null ? hold.toString() : Json.text(progress, "drainingEpoch") + "/"
          + Json.text(progress, "clientsAcked") + "/" + Json.text(progress, "clientsTotal") + "/"
          + progress.path("deadlinePassed").asBoolean() + "/" + Json.text(progress, "inFlight") + "/"
          + progress.path("inFlightBy").size() + "/" + progress.path("idle").size();
      if (!options.json()) {
        line.show(state, "draining " + target + ": " + now);
        if (hold != null && (explained == null || !hold.rule().equals(explained.rule()))) {
          line.note(releases(hold));
          explained = hold;
        }
      }
      if (hold != null && progress.path("deadlinePassed").asBoolean()) {
        // The drain's own deadline (server-side, --deadline) passed before any epoch carried it:
        // existing work was never drained, and waiting on for --timeout would only hide that.
        line.end();
        throw new CliFailure("drain of " + target + " passed its deadline (" + readableInstant(
            Json.text(progress, "deadline")) + ") while still " + hold.describe() + "; it never took effect; "
            + remedy(hold), CliFailure.TIMED_OUT);
      }
      long left = timeout.toNanos() - (System.nanoTime() - start);
      if (left <= 0) {
        line.end();
        throw new CliFailure("timed out after " + Arguments.human(timeout) + " waiting for " + target
            + " to be safe to remove: " + now, CliFailure.TIMED_OUT);
      }
      Thread.sleep(Math.max(1, Math.min(POLL_EVERY.toMillis(), left / 1_000_000)));
    }
  }

  /**
   * {@code 2 of 3 clients acknowledged epoch 14, 12s until the deadline}. Once every client ACKed a
   * drain of a cluster with load reporting, the server's verdict follows ({@code 3 of 3 clients
   * acknowledged epoch 14; in flight: 1 (node-a 1); deadline in 25s}): what it waits for then is the
   * work in flight, not the clock.
   */
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
    String acked = p.path("clientsAcked").asInt() + " of " + total + " client" + (total == 1 ? "" : "s")
        + " acknowledged epoch " + Json.text(p, "drainingEpoch");
    if (p.path("loadReporting").asBoolean() && p.path("clientsAcked").asInt() == total) {
      return acked + "; " + Json.text(p, "verdict");
    }
    return acked + ", " + deadline;
  }

  private static String untilDeadline(String deadline) {
    try {
      return Arguments.human(Duration.between(Instant.now(), Instant.parse(deadline))) + " until the deadline";
    } catch (DateTimeParseException e) {
      return "deadline " + deadline;
    }
  }

  /** An instant as the server writes it, to the second. */
  static String readableInstant(String instant) {
    try {
      return Instant.parse(instant).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    } catch (DateTimeParseException e) {
      return instant;
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
