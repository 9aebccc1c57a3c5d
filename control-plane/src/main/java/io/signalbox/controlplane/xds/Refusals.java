package io.signalbox.controlplane.xds;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the xDS server's refusals go: a counter per reason or limit, a log line at most once per
 * {@link #LOG_INTERVAL} per kind (a client retrying in a loop must not flood the log; the next
 * line says how many were not logged), and, for authentication failures, an audit entry.
 *
 * <p>Refusals happen on the transport's event loop; the audit is a store write. It runs on its own
 * thread behind a bounded queue, so a flood of bad clients costs the event loop an enqueue and the
 * database at most what the queue holds; past that, entries are dropped and counted
 * ({@code signalbox_xds_audit_dropped_total}).
 */
final class Refusals implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Refusals.class);
  static final Duration LOG_INTERVAL = Duration.ofSeconds(10);
  static final int AUDIT_QUEUE = 1000;

  private final Clock clock;
  private final Map<Refusal.Reason, Counter> authFailures = new EnumMap<>(Refusal.Reason.class);
  private final Map<String, Counter> limitsExceeded = new HashMap<>();
  private final Counter auditDropped;
  private final ThreadPoolExecutor auditor;
  private final Consumer<Refusal> audit;
  // Guarded by itself: per kind, when its current log window started and how many were not logged.
  private final Map<String, long[]> logWindows = new HashMap<>();

  /**
   * @param limits every limit name a refusal may name, so each series exists (at 0) from the start
   * @param audit writes one audit entry; runs on the auditor thread
   */
  Refusals(Clock clock, MeterRegistry meters, Iterable<String> limits, Consumer<Refusal> audit) {
    this.clock = clock;
    this.audit = audit;
    for (Refusal.Reason r : Refusal.Reason.values()) {
      authFailures.put(r, Counter.builder("signalbox_xds_auth_failures").tag("reason", r.label())
          .description("xDS connections and streams refused for who the client is").register(meters));
    }
    for (String limit : limits) {
      limitsExceeded.put(limit, Counter.builder("signalbox_xds_limit_exceeded").tag("limit", limit)
          .description("xDS streams refused for exceeding a limit").register(meters));
    }
    auditDropped = Counter.builder("signalbox_xds_audit_dropped")
        .description("xDS refusals not audited because the audit queue was full").register(meters);
    auditor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(AUDIT_QUEUE), new ThreadFactoryBuilder().setNameFormat("xds-refusal-audit").setDaemon(true).build(), new ThreadPoolExecutor.AbortPolicy());
  }

  /** Counts, logs and audits an authentication failure. */
  void refuse(Refusal.Reason reason, String peer, String node, String subject, String message) {
    Refusal refusal = new Refusal(clock.instant(), reason, peer, node == null ? "-" : node,
        subject == null ? "-" : subject, message);
    authFailures.get(reason).increment();
    logRateLimited("auth:" + reason.label(), () -> "xDS client refused, " + refusal.auditText());
    try {
      auditor.execute(() -> {
        try {
          audit.accept(refusal);
        } catch (RuntimeException e) {
          logRateLimited("audit-failed", () -> "could not audit the refusal of " + peer + ": " + e);
        }
      });
    } catch (RejectedExecutionException e) {
      auditDropped.increment();
    }
  }

  /** Counts and logs a stream refused for going over {@code limit}. */
  void exceeded(String limit, String peer, String node, String message) {
    Counter counter = limitsExceeded.get(limit);
    if (counter == null) {
      throw new IllegalArgumentException("unregistered limit " + limit);
    }
    counter.increment();
    logRateLimited("limit:" + limit, () -> "xDS stream of " + (node == null ? "an unnamed node" : "node " + node)
        + " from " + peer + " refused: " + message);
  }

  private void logRateLimited(String kind, java.util.function.Supplier<String> line) {
    Instant now = clock.instant();
    long suppressed;
    synchronized (logWindows) {
      long[] window = logWindows.computeIfAbsent(kind, k -> new long[] {Long.MIN_VALUE, 0});
      if (window[0] != Long.MIN_VALUE && now.toEpochMilli() - window[0] < LOG_INTERVAL.toMillis()) {
        window[1]++;
        return;
      }
      suppressed = window[1];
      window[0] = now.toEpochMilli();
      window[1] = 0;
    }
    log.warn("{}{}", line.get(), suppressed == 0 ? ""
        : " (and " + suppressed + " more of this kind in the " + LOG_INTERVAL.toSeconds() + " s before, not logged)");
  }

  @Override
  public void close() {
    auditor.shutdown();
    try {
      auditor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
