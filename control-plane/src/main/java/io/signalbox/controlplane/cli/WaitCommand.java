package io.signalbox.controlplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code signalbox wait --epoch N --fraction 0.99 --timeout 60s}: for deploy pipelines, returns 0
 * once that share of the connected clients holds epoch N (or a later one), 3 when the timeout
 * passes first.
 */
@Command(name = "wait", mixinStandardHelpOptions = true,
    description = "Wait until a share of the connected clients holds an epoch (exit 0), or time out (exit 3).")
public final class WaitCommand implements Callable<Integer> {

  static final Duration POLL_EVERY = Duration.ofMillis(500);

  @Mixin ClientOptions options;

  @Option(names = "--epoch", paramLabel = "N", description = "The epoch. Default: the newest when the wait starts.")
  Long epoch;

  @Option(names = "--fraction", paramLabel = "F", converter = Fraction.class, defaultValue = "1",
      description = "Share of connected clients, above 0 and up to 1 (0.99, or 99%%). Default: ${DEFAULT-VALUE}.")
  double fraction;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = Arguments.DurationValue.class,
      defaultValue = "5m", description = "How long to wait. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  /** Where the fleet stands against the epoch. */
  record Standing(long epoch, long newest, int clients, int holding, long needed) {
    boolean published() {
      return newest >= epoch;
    }

    boolean reached() {
      return published() && holding >= needed;
    }

    /** {@code held by 2 of 3 clients (66%)}; {@code no clients connected} (the dashboard says so too). */
    String held() {
      if (clients == 0) {
        // "held by 0 of 0 clients (100%)" read as a fleet that has it; nobody has it.
        return "held: no clients connected";
      }
      long pct = clients == 0 ? 100 : 100L * holding / clients;
      return "held by " + holding + " of " + clients + " client" + (clients == 1 ? "" : "s") + " (" + pct + "%)";
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    long start = System.nanoTime();
    ProgressLine line = new ProgressLine(options.out(), !options.json() && ProgressLine.stdoutIsTerminal());
    while (true) {
      Standing s = standing(options.client().get("/api/v1/clients/summary"));
      if (s.reached()) {
        line.end();
        if (options.json()) {
          Map<String, Object> body = new LinkedHashMap<>();
          body.put("epoch", s.epoch());
          body.put("clients", s.clients());
          body.put("holding", s.holding());
          body.put("fraction", fraction);
          options.println(Json.write(body));
        } else {
          options.println("epoch " + s.epoch() + " " + s.held());
        }
        return 0;
      }
      String now = s.published() ? s.held() + ", waiting for " + percent(fraction)
          : "not published yet (newest is " + s.newest() + ")";
      if (!options.json()) {
        line.show(s.newest() + "/" + s.clients() + "/" + s.holding(), "epoch " + s.epoch() + ": " + now);
      }
      long left = timeout.toNanos() - (System.nanoTime() - start);
      if (left <= 0) {
        line.end();
        throw new CliFailure("timed out after " + Arguments.human(timeout) + " waiting for " + percent(fraction)
            + " of clients to hold epoch " + s.epoch() + ": " + now, CliFailure.TIMED_OUT);
      }
      Thread.sleep(Math.max(1, Math.min(POLL_EVERY.toMillis(), left / 1_000_000)));
    }
  }

  /** Reads {@code GET /api/v1/clients/summary}: clients count by the epoch they hold. */
  private Standing standing(JsonNode summary) {
    long newest = summary.path("epoch").asLong();
    if (epoch == null) {
      epoch = newest;
    }
    int clients = summary.path("clients").asInt();
    int holding = 0;
    for (Map.Entry<String, JsonNode> e : summary.path("byEpoch").properties()) {
      if (Long.parseLong(e.getKey()) >= epoch) {
        holding += e.getValue().asInt();
      }
    }
    // Whole clients: 99% of 1,000 is 990, of 10 it is 10 (9.9 clients do not exist).
    long needed = BigDecimal.valueOf(fraction).multiply(BigDecimal.valueOf(clients))
        .setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    return new Standing(epoch, newest, clients, holding, needed);
  }

  static String percent(double fraction) {
    return BigDecimal.valueOf(fraction).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
  }

  /** {@code 0.99} or {@code 99%}: more than 0, at most 1. */
  static final class Fraction implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      String raw = value.strip();
      try {
        double f = raw.endsWith("%") ? Double.parseDouble(raw.substring(0, raw.length() - 1)) / 100
            : Double.parseDouble(raw);
        if (f > 0 && f <= 1) {
          return f;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new TypeConversionException("expected a share above 0 and at most 1 (0.99 or 99%), was '" + value + "'");
    }
  }
}
