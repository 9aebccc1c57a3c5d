package io.signalbox.controlplane.reconcile;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.lifecycle.EndpointRef;
import io.signalbox.store.EpochStatus;
import io.signalbox.store.SnapshotStore;
import io.signalbox.store.StoreUnavailableException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store work that follows a published epoch: its endpoint transitions in the audit log, its
 * parent marked SUPERSEDED, retention, and a checkpoint when its chain of deltas is long. None of
 * it decides what clients get, so the writer hands it here and goes on to the next epoch: at
 * 10,000 clusters it cost the writer more per epoch than the delta append itself. One thread runs
 * it in publish order, so the audit log and the statuses follow the epochs as they did on the
 * writer.
 *
 * <p>A store that is down fails these steps without stopping the next ones. A parent that could
 * not be marked is marked with the next epoch; the epoch's transitions are not audited (logged).
 */
final class AfterPublish implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AfterPublish.class);

  private final SnapshotStore store;
  private final Retention retention;
  private final Supplier<Set<Long>> keep;
  private final ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
      new LinkedBlockingQueue<>(), new ThreadFactoryBuilder().setNameFormat("after-publish").setDaemon(true).build());
  // Parents still ACTIVE because the store was down when their successor was published; this thread only.
  private final Deque<Long> unmarked = new ArrayDeque<>();

  /**
   * @param keep the epochs retention must keep whatever their age: the last safe one and those
   *     quarantined resources are restored from
   */
  AfterPublish(SnapshotStore store, Retention retention, Supplier<Set<Long>> keep) {
    this.store = store;
    this.retention = retention;
    this.keep = keep;
  }

  /**
   * Queues the work for {@code published}, the epoch just served in place of {@code parent}.
   *
   * @param causes why each endpoint of {@code published} is in its state (operator, departure)
   * @param at when it was published: the audit entries' time
   */
  Future<?> published(Snapshot parent, Snapshot published, Map<EndpointRef, String> causes, Instant at) {
    return thread.submit(() -> {
      try {
        TransitionAudit.record(store, parent, published, causes, at);
        if (parent != null) {
          unmarked.add(parent.epoch());
        }
        markSuperseded();
        retention.published(published.epoch(), keep.get());
        checkpointIfDue(published);
      } catch (RuntimeException e) {
        // A bug here must not stop the bookkeeping of later epochs.
        log.error("store work after publishing epoch {} failed", published.epoch(), e);
      }
    });
  }

  /**
   * Queues, for a restart that serves {@code restored}, the marking of older epochs a crash left
   * ACTIVE: the bookkeeping still queued when the previous process died (at most the newest
   * {@value #RESTART_SCAN} epochs are looked at).
   */
  Future<?> restored(Snapshot restored) {
    return thread.submit(() -> {
      try {
        store.epochs(RESTART_SCAN, restored.epoch()).stream()
            .filter(r -> r.status() == EpochStatus.ACTIVE)
            .forEach(r -> unmarked.add(r.epoch()));
        markSuperseded();
      } catch (StoreUnavailableException e) {
        log.warn("could not look for epochs left ACTIVE before epoch {}: {}", restored.epoch(), e.getMessage());
      }
    });
  }

  static final int RESTART_SCAN = 100;

  private void markSuperseded() {
    while (!unmarked.isEmpty()) {
      long epoch = unmarked.peek();
      try {
        // Only if still ACTIVE: the rollout may have marked it SAFE, an operator REJECTED.
        store.replaceStatus(epoch, EpochStatus.ACTIVE, EpochStatus.SUPERSEDED, "replaced by a newer epoch");
      } catch (StoreUnavailableException e) {
        log.warn("could not mark epoch {} SUPERSEDED; will retry with the next epoch: {}", epoch, e.getMessage());
        return;
      }
      unmarked.remove();
    }
  }

  /**
   * Stores {@code snapshot} whole once its chain of deltas is long: otherwise a later append would
   * write the whole state (~0.3 s at 10,000 clusters) before that epoch could be published.
   */
  private void checkpointIfDue(Snapshot snapshot) {
    try {
      if (store.checkpointDue()) {
        store.checkpoint(snapshot.toEnvelope());
      }
    } catch (StoreUnavailableException e) {
      // The next append writes a checkpoint itself when the chain reaches its bound.
      log.debug("checkpoint of epoch {} not written: {}", snapshot.epoch(), e.getMessage());
    }
  }

  /** Epochs whose store work has not started yet: {@code signalbox_after_publish_backlog}. */
  int backlog() {
    return thread.getQueue().size();
  }

  /** Waits for the work queued so far, then stops; later {@link #published} calls are refused. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
        log.warn("store work after publishing still running after 10 s; abandoned");
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
