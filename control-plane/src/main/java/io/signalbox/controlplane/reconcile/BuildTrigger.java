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
 *
 * <p>Time comes from an injected monotonic ticker ({@code System::nanoTime} in production), not a
 * wall {@code Clock}: a wall clock stepped back an hour would hold every build for that hour. The
 * decision ({@link #nanosUntilDue}) is separate from the waiting, so tests drive it with a fake
 * ticker and no real time.
 */
final class BuildTrigger {

  private static final long NO_WAKE = Long.MIN_VALUE;

  private final Duration debounce;
  private final Duration maxDelay;
  private final java.util.function.LongSupplier ticker;
  // Guards every field below; the writer waits on `changed`.
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private boolean dirty;
  private long firstDirtyNanos;
  private long lastDirtyNanos;
  private boolean running = true;
  private long retryNotBeforeNanos;
  private long wakeAtNanos = NO_WAKE;
  private String pendingCause = "startup";
  // When the writer last took a build; a change arriving `debounce` after it is a leading edge.
  private long lastBuildNanos;
  private boolean leadingEdge;

  BuildTrigger(Duration debounce, Duration maxDelay) {
    this(debounce, maxDelay, System::nanoTime);
  }

  /** @param ticker monotonic nanoseconds, as {@link System#nanoTime} */
  BuildTrigger(Duration debounce, Duration maxDelay, java.util.function.LongSupplier ticker) {
    this.debounce = debounce;
    this.maxDelay = maxDelay;
    this.ticker = ticker;
    long now = ticker.getAsLong();
    this.retryNotBeforeNanos = now;
    this.lastBuildNanos = now - debounce.toNanos();
  }

  void signal(String cause) {
    signal(cause, false);
  }

  /**
   * Wakes the writer for something that must not wait for a burst to settle: a follower serving an
   * epoch the leader already committed, a replica taking over. Due at once (store retries aside).
   */
  void signalNow(String cause) {
    signal(cause, true);
  }

  private void signal(String cause, boolean now) {
    lock.lock();
    try {
      long at = ticker.getAsLong();
      if (!dirty) {
        firstDirtyNanos = at;
        pendingCause = cause;
        leadingEdge = at - lastBuildNanos >= debounce.toNanos();
      }
      if (now) {
        leadingEdge = true;
      }
      dirty = true;
      lastDirtyNanos = at;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the writer {@code delay} from now, replacing any earlier schedule; null cancels it. */
  void wakeIn(Duration delay) {
    lock.lock();
    try {
      wakeAtNanos = delay == null ? NO_WAKE : ticker.getAsLong() + Math.max(0, delay.toNanos());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The next build waits at least {@code delay} (after a store failure), then runs. */
  void retryAfter(Duration delay, String cause) {
    lock.lock();
    try {
      retryNotBeforeNanos = ticker.getAsLong() + delay.toNanos();
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
      while (running) {
        long wait = nanosUntilDue();
        if (wait == 0) {
          break;
        }
        if (wait < 0) {
          changed.await();
        } else {
          changed.awaitNanos(wait);
        }
      }
      if (!running) {
        return null;
      }
      dirty = false;
      leadingEdge = false;
      lastBuildNanos = ticker.getAsLong();
      return pendingCause;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How long until a build is due: 0 when it is due now, -1 when nothing is pending (the writer
   * waits for a signal). A scheduled wake-up that is due becomes a pending change here.
   */
  long nanosUntilDue() {
    lock.lock();
    try {
      long now = ticker.getAsLong();
      if (!dirty && wakeAtNanos != NO_WAKE) {
        if (wakeAtNanos - now > 0) {
          return wakeAtNanos - now;
        }
        wakeAtNanos = NO_WAKE;
        dirty = true;
        firstDirtyNanos = lastDirtyNanos = now - debounce.toNanos();
        pendingCause = "scheduled endpoint lifecycle change";
      }
      if (!dirty) {
        return -1;
      }
      long due = leadingEdge ? now
          : Math.min(lastDirtyNanos + debounce.toNanos(), firstDirtyNanos + maxDelay.toNanos());
      if (retryNotBeforeNanos - due > 0) {
        due = retryNotBeforeNanos;
      }
      return Math.max(0, due - now);
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
}
