package io.signalbox.controlplane.fleet;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.signalbox.controlplane.xds.StreamEventSink;
import io.signalbox.store.HistorySettings;
import io.signalbox.store.StoreUnavailableException;
import io.signalbox.store.StreamEvent;
import io.signalbox.store.StreamHistory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the streams did into the {@link StreamHistory}, off the stream threads: a stream
 * hands each event to a bounded queue ({@link #offer}, which never blocks and never touches the
 * store), and one thread of its own drains it in batches, one statement per batch, and prunes by
 * the retention now and then. When the queue is full (the store is slow or down for longer than the
 * queue lasts) an event is dropped and counted in {@code signalbox_history_dropped_events}: the
 * history is an account for people, and the ADS path must not wait for it (issue 43).
 *
 * <p>Mirrors {@link ClientStatusRecorder}: one thread owns the batch and the failing flag; a store
 * outage is logged once, and the batch in hand is written again by the next round.
 */
public final class HistoryRecorder implements StreamEventSink, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HistoryRecorder.class);

  /**
   * @param capacity how many events may wait for the writer; more are dropped
   * @param batch the most events one statement writes
   * @param interval how long the writer gathers events before a write (less when a batch is full)
   * @param pruneEvery how often the retention is applied
   */
  public record Settings(String replicaId, HistorySettings retention, int capacity, int batch, Duration interval,
      Duration pruneEvery) {
    public Settings {
      Objects.requireNonNull(replicaId, "replicaId");
      Objects.requireNonNull(retention, "retention");
      if (capacity < 1 || batch < 1) {
        throw new IllegalArgumentException("capacity and batch must be positive, were " + capacity + ", " + batch);
      }
    }

    /** 100,000 events waiting at most (a change to 10,000 clients' four types, twice), 5,000 a write, every 250 ms. */
    public static Settings of(String replicaId, HistorySettings retention) {
      return new Settings(replicaId, retention, 100_000, 5_000, Duration.ofMillis(250), Duration.ofMinutes(1));
    }
  }

  private final StreamHistory history;
  private final Clock clock;
  private final Settings settings;
  private final BlockingQueue<StreamEvent> queue;
  private final Counter dropped;
  private final Counter written;
  private final Thread writer;
  private volatile boolean running = true;

  // Touched only by the writer thread (and by close() after it stopped).
  private final List<StreamEvent> batch = new ArrayList<>();
  private Instant lastPrune = Instant.MIN;
  private boolean failing;

  public HistoryRecorder(StreamHistory history, Clock clock, Settings settings, MeterRegistry meters) {
    this.history = history;
    this.clock = clock;
    this.settings = settings;
    this.queue = new ArrayBlockingQueue<>(settings.capacity());
    this.dropped = Counter.builder("signalbox_history_dropped_events")
        .description("stream events not recorded in the history because its queue was full").register(meters);
    this.written = Counter.builder("signalbox_history_written_events")
        .description("stream events written to the history").register(meters);
    Gauge.builder("signalbox_history_queued_events", queue, BlockingQueue::size)
        .description("stream events waiting to be written to the history").register(meters);
    this.writer = new com.google.common.util.concurrent.ThreadFactoryBuilder()
        .setNameFormat("stream-history-writer").setDaemon(true).build().newThread(this::run);
  }

  public HistoryRecorder start() {
    writer.start();
    return this;
  }

  @Override
  public void offer(StreamEvent event) {
    if (!queue.offer(event)) {
      dropped.increment();
    }
  }

  @Override
  public String replicaId() {
    return settings.replicaId();
  }

  private void run() {
    while (running) {
      try {
        StreamEvent first = queue.poll(settings.interval().toMillis(), TimeUnit.MILLISECONDS);
        if (first != null && batch.size() < settings.batch()) {
          batch.add(first);
          // Gather what else arrives within one interval: a change answered by a thousand clients
          // becomes a few statements, not a thousand.
          Thread.sleep(settings.interval().toMillis());
        } else if (first != null) {
          // The batch in hand failed to write and is full: this one waits its turn again.
          offer(first);
        }
        round();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One write of what is queued (in batches), and the retention when it is due. Never throws. */
  void round() {
    try {
      do {
        queue.drainTo(batch, settings.batch() - batch.size());
        if (!batch.isEmpty()) {
          history.append(batch);
          written.increment(batch.size());
          batch.clear();
        }
      } while (!queue.isEmpty());
      Instant now = clock.instant();
      if (!now.isBefore(lastPrune.plus(settings.pruneEvery()))) {
        lastPrune = now;
        long deleted = history.prune(now.minus(settings.retention().retain()), settings.retention().maxEvents());
        if (deleted > 0) {
          log.debug("Pruned {} stream history events", deleted);
        }
      }
      if (failing) {
        failing = false;
        log.info("Stream history written again");
      }
    } catch (StoreUnavailableException e) {
      if (!failing) {
        failing = true;
        log.warn("Stream history not written, retrying every {} ms (events beyond {} queued are dropped): {}",
            settings.interval().toMillis(), settings.capacity(), e.getMessage());
      }
    }
  }

  /** Stops the writer, then writes what is still queued: close the xDS server first. */
  @Override
  public void close() {
    running = false;
    writer.interrupt();
    try {
      writer.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!writer.isAlive()) {
      round();
    }
  }
}
