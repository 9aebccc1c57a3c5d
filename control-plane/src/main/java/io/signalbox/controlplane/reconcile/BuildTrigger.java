package io.signalbox.controlplane.reconcile;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The latest-wins slot in front of the single writer: any thread may {@link #signal} that input
 * changed; the writer {@link #await}s until the burst has settled — quiet for {@code debounce}, or
 * {@code maxDelay} after its first change, whichever is first — then builds from whatever is newest.
 * Also wakes the writer at a scheduled instant (a lifecycle change due) and holds it back after a
 * store failure.
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

  BuildTrigger(Duration debounce, Duration maxDelay) {
    this.debounce = debounce;
    this.maxDelay = maxDelay;
  }

  void signal(String cause) {
    lock.lock();
    try {
      long now = System.nanoTime();
      if (!dirty) {
        firstDirtyNanos = now;
        pendingCause = cause;
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
          long due = Math.min(lastDirtyNanos + debounce.toNanos(), firstDirtyNanos + maxDelay.toNanos());
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
    return now - lastDirtyNanos >= debounce.toNanos() || now - firstDirtyNanos >= maxDelay.toNanos();
  }
}
