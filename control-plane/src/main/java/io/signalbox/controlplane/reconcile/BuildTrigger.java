package io.signalbox.controlplane.reconcile;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The latest-wins slot in front of the single writer: any thread may {@link #signal} that input
 * changed; the writer {@link #await}s until a build is due, then builds from whatever is newest.
 * Also wakes the writer at a scheduled instant (a lifecycle change due) and holds it back after a
 * store failure.
 *
 * <p>A build is due at once for a change that arrives after at least {@code debounce} without a
 * build (the leading edge: an operator's single edit reaches the fleet without waiting), and
 * otherwise once the burst has settled — quiet for {@code debounce}, or {@code maxDelay} after its
 * first change, whichever is first. So a burst costs at most one build at its start and one after
 * it, never one per change.
 */
final class BuildTrigger {

  private static final long NO_WAKE = Long.MIN_VALUE;

  private final Duration debounce;
  private final Duration maxDelay;
  // Guards every field below; the writer waits on `changed`.
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private boolean dirty;
  private long firstDirtyNanos;
  private long lastDirtyNanos;
  private boolean running = true;
  private long retryNotBeforeNanos = System.nanoTime();
  private long wakeAtNanos = NO_WAKE;
  private String pendingCause = "startup";
  // When the writer last took a build; a change arriving `debounce` after it is a leading edge.
  private long lastBuildNanos;
  private boolean leadingEdge;

  BuildTrigger(Duration debounce, Duration maxDelay) {
    this.debounce = debounce;
    this.maxDelay = maxDelay;
    this.lastBuildNanos = System.nanoTime() - debounce.toNanos();
  }

  void signal(String cause) {
    lock.lock();
    try {
      long now = System.nanoTime();
      if (!dirty) {
        firstDirtyNanos = now;
        pendingCause = cause;
        leadingEdge = now - lastBuildNanos >= debounce.toNanos();
      }
      dirty = true;
      lastDirtyNanos = now;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the writer {@code delay} from now, replacing any earlier schedule; null cancels it. */
  void wakeIn(Duration delay) {
    lock.lock();
    try {
      wakeAtNanos = delay == null ? NO_WAKE : System.nanoTime() + Math.max(0, delay.toNanos());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The next build waits at least {@code delay} (after a store failure), then runs. */
  void retryAfter(Duration delay, String cause) {
    lock.lock();
    try {
      retryNotBeforeNanos = System.nanoTime() + delay.toNanos();
    } finally {
      lock.unlock();
    }
    signal(cause);
  }

  /**
   * Blocks the writer until a build is due and returns its cause, or null once {@link #stop}ped.
   *
   * @throws InterruptedException when the writer is interrupted
   */
  String await() throws InterruptedException {
    lock.lock();
    try {
      while (running && !settled()) {
        if (!dirty && wakeAtNanos != NO_WAKE) {
          long untilWake = wakeAtNanos - System.nanoTime();
          if (untilWake <= 0) {
            wakeAtNanos = NO_WAKE;
            dirty = true;
            firstDirtyNanos = lastDirtyNanos = System.nanoTime() - debounce.toNanos();
            pendingCause = "scheduled endpoint lifecycle change";
          } else {
            changed.awaitNanos(untilWake);
          }
        } else if (!dirty) {
          changed.await();
        } else {
          long due = leadingEdge ? System.nanoTime()
              : Math.min(lastDirtyNanos + debounce.toNanos(), firstDirtyNanos + maxDelay.toNanos());
          long wait = Math.max(due, retryNotBeforeNanos) - System.nanoTime();
          if (wait > 0) {
            changed.awaitNanos(wait);
          }
        }
      }
      if (!running) {
        return null;
      }
      dirty = false;
      leadingEdge = false;
      lastBuildNanos = System.nanoTime();
      return pendingCause;
    } finally {
      lock.unlock();
    }
  }

  void stop() {
    lock.lock();
    try {
      running = false;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private boolean settled() {
    if (!dirty) {
      return false;
    }
    long now = System.nanoTime();
    if (now - retryNotBeforeNanos < 0) {
      return false;
    }
    return leadingEdge || now - lastDirtyNanos >= debounce.toNanos() || now - firstDirtyNanos >= maxDelay.toNanos();
  }
}
