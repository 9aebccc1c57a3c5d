package io.signalbox.controlplane.timeline;

import io.signalbox.store.AuditEntry;
import io.signalbox.store.AuditTrail;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's own entries in the audit trail (actor {@value #ACTOR}), for what it decides
 * by itself and keeps nowhere else: holds raised and released, sources failing and recovering,
 * leadership won and lost, automatic drops. Whoever notices such a change (the writer, the
 * election, admission) is stamped with the time and hands it here; one thread of its own writes
 * it, so neither the writer nor the election waits on the store, and the entries keep the order
 * they were noticed in.
 */
public final class SystemAudit implements AutoCloseable {

  public static final String ACTOR = "signalbox";
  public static final String HOLD = "hold";
  public static final String RELEASE = "release";
  public static final String SOURCE_FAILED = "source-failed";
  public static final String SOURCE_RECOVERED = "source-recovered";
  public static final String LEAD = "lead";
  public static final String STEP_DOWN = "step-down";
  public static final String AUTOMATIC_DROP = "automatic-drop";

  private static final Logger log = LoggerFactory.getLogger(SystemAudit.class);
  /** Far above what a burst of changes writes; past it, entries are dropped (logged), never blocking. */
  static final int QUEUE = 1000;

  private final AuditTrail store;
  private final Clock clock;
  private final ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
      new ArrayBlockingQueue<>(QUEUE),
      new com.google.common.util.concurrent.ThreadFactoryBuilder().setNameFormat("system-audit").setDaemon(true).build());

  public SystemAudit(AuditTrail store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Records that {@code action} happened to {@code target} now, because of {@code reason}. */
  public void record(String action, String target, String reason) {
    AuditEntry entry = new AuditEntry(clock.instant(), ACTOR, action, target, reason);
    try {
      thread.execute(() -> write(entry));
    } catch (RejectedExecutionException e) {
      log.warn("audit entry not written (closed, or {} waiting): {} {}: {}", QUEUE, action, target, reason);
    }
  }

  /** As {@link #record} with each change {@link StateChanges} found. */
  public void record(Iterable<StateChanges.Change> changes) {
    for (StateChanges.Change c : changes) {
      record(c.action(), c.target(), c.reason());
    }
  }

  private void write(AuditEntry entry) {
    try {
      store.audit(entry);
    } catch (StoreUnavailableException e) {
      // The change itself already took effect and is in the log; only its line in the timeline is missing.
      log.warn("could not audit {} {} ({}): {}", entry.action(), entry.target(), entry.reason(), e.getMessage());
    }
  }

  /** Writes what is queued, then stops. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
