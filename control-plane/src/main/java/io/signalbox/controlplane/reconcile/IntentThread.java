package io.signalbox.controlplane.reconcile;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread every change to operator intent runs on, in order, and the writer's copy of the
 * intent it keeps. A change stores first, then replaces the copy ({@link Intent}, immutable), then
 * asks the writer to rebuild; nothing runs under a lock. Until the stored intent has been read, no
 * change is accepted.
 */
final class IntentThread implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(IntentThread.class);

  private final Clock clock;
  private final Consumer<String> rebuild;
  private final ExecutorService executor;
  // Replaced only on the executor; read by the writer, the rollout and the API.
  private volatile Intent intent;
  private volatile String unreadable = "not read yet";

  IntentThread(Clock clock, Consumer<String> rebuild) {
    this.clock = clock;
    this.rebuild = rebuild;
    this.executor = Executors.newSingleThreadExecutor(new ThreadFactoryBuilder().setNameFormat("interventions").setDaemon(true).build());
  }

  /** The intent the writer applies, or null until it has been read. */
  Intent intent() {
    return intent;
  }

  /** On the thread: replaces the copy, after the store has the change. */
  void replace(Intent next) {
    intent = next;
  }

  /** Why the stored intent could not be read, or null once it has been. */
  String unreadable() {
    return unreadable;
  }

  void unreadable(String why) {
    unreadable = why;
  }

  /** One change, against the intent as read; the writer rebuilds if it was applied ("operator change"). */
  <T> Outcome<T> change(Function<Intent, Outcome<T>> work) {
    return change(work, value -> "operator change");
  }

  /**
   * As {@link #change(Function)}, the rebuild's cause said by the applied value: the epoch a
   * rollback builds names the epoch it returned to and why, not just "operator change" (issue 42).
   */
  <T> Outcome<T> change(Function<Intent, Outcome<T>> work, Function<T, String> cause) {
    Outcome<T> outcome = run(() -> {
      Intent current = intent;
      if (current == null) {
        return new Outcome.Unavailable<>("operator intent has not been read from the store yet: " + unreadable);
      }
      return work.apply(current);
    });
    if (outcome instanceof Outcome.Applied<T> applied) {
      rebuild.accept(cause.apply(applied.value()));
    }
    return outcome;
  }

  /** Runs {@code work} on the thread and waits for it; a store outage is an {@code Unavailable}. */
  <T> Outcome<T> run(Callable<Outcome<T>> work) {
    try {
      return executor.submit(() -> {
        try {
          return work.call();
        } catch (StoreUnavailableException e) {
          return new Outcome.Unavailable<T>(e.getMessage());
        }
      }).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome.Unavailable<>("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Housekeeping the writer asks for and need not wait for (an entry the writer no longer applies
   * is harmless until then): stored, then applied to the copy; retried by the next build if the
   * store is out.
   */
  void background(String what, UnaryOperator<Intent> work) {
    executor.execute(() -> {
      Intent current = intent;
      if (current == null) {
        return;
      }
      try {
        intent = work.apply(current);
      } catch (StoreUnavailableException e) {
        log.warn("could not {} (the next build tries again): {}", what, e.getMessage());
      }
    });
  }

  /** Times as the store keeps them (microseconds), so the copy equals what a restart reads back. */
  Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
