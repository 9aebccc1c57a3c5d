package io.signalbox.source.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one file and hands its complete content to a callback whenever that content changes.
 *
 * <p>Files reach us in three ways, and each fools a naive watcher differently:
 *
 * <ul>
 *   <li>replaced by rename ({@code mv new old}): atomic, but the event is on the directory, not the
 *       file, so the parent directory is watched;
 *   <li>written in place (truncate, then writes in chunks): a reader can see a half file, so content
 *       is read only after size, mtime and inode have held still for a quiet period, and re-checked
 *       after the read;
 *   <li>swapped through a symlink (Kubernetes ConfigMap volumes retarget {@code ..data}): the watched
 *       name never changes, so any event in the directory triggers a re-check of the resolved target,
 *       whose own directory is watched too.
 * </ul>
 *
 * <p>A file that was there and is now another one (a new inode, or the symlink resolves elsewhere)
 * arrived complete: renames and symlink swaps are atomic, so it is read at once, without the quiet
 * period, when nothing was read during the quiet period before it. A burst of replacements still
 * coalesces (its first is read at once, the rest once the burst has held still), and so does a file
 * whose own name was deleted since the last read (an editor that moves the old file away and writes
 * a new one under the name is writing in place, just into a new inode).
 *
 * Inotify also misses things (overflow, network filesystems, a directory recreated), so a slow poll
 * compares the content hash as a fallback. Bursts coalesce: only the content that is stable at the
 * end is delivered, and only when it differs from what was last delivered.
 *
 * <p>All watching happens on one daemon thread; the callback runs on it (and, for the initial read,
 * on the thread calling {@link #start}), never concurrently, and must not block for long.
 *
 * <p>This class decides when to read. {@link WatchedDirectories} is the inotify side,
 * {@link Observation} what "held still" compares, {@link LastDelivered} whether a read is news.
 */
public final class WatchedFile implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WatchedFile.class);

  /** What the callback receives. */
  public sealed interface Event {
    /** The file exists and this is its complete content (a copy; callers may keep it). */
    record Content(byte[] bytes) implements Event {
      public Content {
        bytes = bytes.clone();
      }

      @Override
      public byte[] bytes() {
        return bytes.clone();
      }

      /** The content as UTF-8 text, without the copy {@link #bytes()} makes (a file may be megabytes). */
      public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
      }

      @Override
      public boolean equals(Object other) {
        return other instanceof Content c && Arrays.equals(bytes, c.bytes);
      }

      @Override
      public int hashCode() {
        return Arrays.hashCode(bytes);
      }

      @Override
      public String toString() {
        return "Content[" + bytes.length + " bytes]";
      }
    }

    /** The file does not exist (deleted, or a dangling symlink). */
    record Missing() implements Event {}

    /**
     * Something is there that must not be read, or the watcher failed: a directory, a FIFO, a
     * device, a symlink loop, a file over the size limit, one that cannot be read, or an exception
     * that escaped the watcher's loop (which restarts, then delivers the content again).
     */
    record Unusable(String reason) implements Event {}
  }

  /**
   * The default size limit: a 10,000-cluster endpoint file of 10 endpoints each is about 8 MB, so
   * 64 MiB leaves room while a runaway file (or {@code /dev/zero} behind a symlink) cannot take the
   * heap.
   */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  /** The largest limit: a file is read into one array. */
  public static final long MAX_MAX_BYTES = 1L << 30;

  /**
   * @param quietPeriod how long the file must hold still before it is read
   * @param pollInterval how often the content is compared even without events
   */
  public record Timing(Duration quietPeriod, Duration pollInterval) {
    public static final Timing DEFAULT = new Timing(Duration.ofMillis(100), Duration.ofSeconds(1));

    public Timing {
      Objects.requireNonNull(quietPeriod, "quietPeriod");
      Objects.requireNonNull(pollInterval, "pollInterval");
      if (quietPeriod.isNegative() || pollInterval.isNegative() || pollInterval.isZero()) {
        throw new IllegalArgumentException("bad timing: quiet " + quietPeriod + ", poll " + pollInterval);
      }
    }
  }

  private final Path path;
  private final Consumer<Event> callback;
  private final Timing timing;
  private final LongSupplier nanoTime;
  private final long maxBytes;
  private final io.signalbox.source.Restarts restarts;
  private final WatchedDirectories directories;
  private final Thread thread;
  // Only the watcher thread touches the fields below once start() has returned.
  private final LastDelivered delivered = new LastDelivered();
  private Observation observed;
  // When content was last read (delivered or found unchanged); a replacement arriving a quiet period
  // after it is read at once.
  private long lastReadNanos;
  // The watched name itself was deleted (or events were lost) since the last read: whatever is there
  // now was created under the name, possibly still being written.
  private boolean recreated;
  private volatile boolean readPending;
  private volatile boolean closed;

  private WatchedFile(Path path, Consumer<Event> callback, Timing timing, LongSupplier nanoTime, long maxBytes,
      io.signalbox.source.Restarts restarts) throws IOException {
    if (maxBytes < 1 || maxBytes > MAX_MAX_BYTES) {
      throw new IllegalArgumentException("maxBytes must be 1.." + MAX_MAX_BYTES + ", was " + maxBytes);
    }
    this.path = path.toAbsolutePath().normalize();
    this.callback = callback;
    this.timing = timing;
    this.nanoTime = nanoTime;
    this.maxBytes = maxBytes;
    this.restarts = restarts;
    this.directories = new WatchedDirectories(this.path);
    this.thread = new com.google.common.util.concurrent.ThreadFactoryBuilder().setDaemon(true).build()
        .newThread(this::supervise);
    // Named here, not by a name format: a '%' in the file's name would be read as a directive.
    this.thread.setName("watched-file:" + this.path.getFileName());
  }

  /**
   * Starts watching {@code path}. The current content (or {@link Event.Missing}) is delivered to
   * {@code callback} on the calling thread before this returns, so a caller's first state includes it.
   *
   * @throws IOException when no watch service can be created (the process is out of inotify instances)
   */
  public static WatchedFile start(Path path, Timing timing, Consumer<Event> callback) throws IOException {
    return start(path, timing, DEFAULT_MAX_BYTES, io.signalbox.source.Restarts.DEFAULT, callback);
  }

  /**
   * As {@link #start(Path, Timing, Consumer)}, refusing files over {@code maxBytes} and restarting
   * the watcher's thread after a failure as {@code restarts} says.
   */
  public static WatchedFile start(Path path, Timing timing, long maxBytes, io.signalbox.source.Restarts restarts,
      Consumer<Event> callback) throws IOException {
    return start(path, timing, System::nanoTime, maxBytes, restarts, callback);
  }

  /** As {@link #start(Path, Timing, Consumer)}, with the quiet period measured on {@code nanoTime}. */
  static WatchedFile start(Path path, Timing timing, LongSupplier nanoTime, Consumer<Event> callback)
      throws IOException {
    return start(path, timing, nanoTime, DEFAULT_MAX_BYTES, io.signalbox.source.Restarts.DEFAULT, callback);
  }

  private static WatchedFile start(Path path, Timing timing, LongSupplier nanoTime, long maxBytes,
      io.signalbox.source.Restarts restarts, Consumer<Event> callback) throws IOException {
    WatchedFile file = new WatchedFile(path, callback, timing, nanoTime, maxBytes, restarts);
    // Register before the first read so a change between the read and the thread start is seen.
    file.directories.register();
    file.observed = Observation.of(file.path);
    // A writer may be mid-write right now; retry briefly, then deliver what is there: the first
    // state must include this file, and the watcher delivers the finished content once it settles.
    boolean whole = false;
    for (int attempt = 0; attempt < 3 && !whole; attempt++) {
      whole = file.readAndDeliver(false);
    }
    if (!whole) {
      file.readAndDeliver(true);
    }
    file.lastReadNanos = nanoTime.getAsLong() - timing.quietPeriod().toNanos();
    file.thread.start();
    return file;
  }

  public static WatchedFile start(Path path, Consumer<Event> callback) throws IOException {
    return start(path, Timing.DEFAULT, callback);
  }

  public Path path() {
    return path;
  }

  /** True while a change has been seen and waits for its quiet period (for tests). */
  boolean readPending() {
    return readPending;
  }

  /** Stops watching; no callback starts after this returns (one already running may finish). */
  @Override
  public void close() {
    closed = true;
    directories.close();
    if (Thread.currentThread() != thread) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(2));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The watcher's thread: {@link #run} under supervision. An exception or Error escaping it (a
   * callback's, or a bug's) is delivered as {@link Event.Unusable} with its reason, and the loop
   * restarts after a backoff and delivers the file's content again, even if unchanged: the consumer
   * was told FAILED, and must hear when it is fine again.
   */
  private void supervise() {
    int failures = 0;
    while (!closed) {
      long startedAt = nanoTime.getAsLong();
      try {
        if (failures > 0) {
          delivered.forget();
          observed = Observation.of(path);
          readAndDeliver(true);
        }
        run();
        return;
      } catch (RuntimeException | Error e) {
        if (!io.signalbox.source.Restarts.restartable(e)) {
          throw e;
        }
        // A loop that ran longer than the longest delay failed afresh, not in a row.
        failures = nanoTime.getAsLong() - startedAt > restarts.max().toNanos() ? 1 : failures + 1;
        Duration delay = restarts.after(failures);
        log.error("the watcher of {} failed; restarting in {} ms", path, delay.toMillis(), e);
        try {
          String reason = io.signalbox.source.Restarts.reason(e, delay);
          delivered.failed(reason);
          deliver(new Event.Unusable(reason));
        } catch (RuntimeException | Error again) {
          if (!io.signalbox.source.Restarts.restartable(again)) {
            throw again;
          }
          log.error("the callback of {} failed on the watcher's failure too", path, again);
        }
        try {
          Thread.sleep(Math.max(0, delay.toMillis()));
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private void run() {
    long quietNanos = timing.quietPeriod().toNanos();
    long pollNanos = timing.pollInterval().toNanos();
    long settleAt = 0; // when the pending change may be read; 0 = nothing pending
    long nextPoll = nanoTime.getAsLong() + pollNanos;
    try {
      while (!closed) {
        readPending = settleAt != 0;
        long now = nanoTime.getAsLong();
        long wakeAt = settleAt != 0 ? Math.min(settleAt, nextPoll) : nextPoll;
        WatchedDirectories.Events happened =
            directories.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wakeAt - now)));
        recreated |= happened.nameDeleted();
        boolean events = happened.any();
        if (closed) {
          return;
        }
        now = nanoTime.getAsLong();
        if (events || now - nextPoll >= 0) {
          Observation current = Observation.of(path);
          boolean moved = !current.equals(observed);
          if (now - nextPoll >= 0) {
            nextPoll = now + pollNanos;
            directories.register(); // a directory may have been recreated, or a symlink retargeted
            // Same size and mtime can still hide new content (coarse mtime, copied timestamps).
            moved |= settleAt == 0 && delivered.differs(read());
          }
          if (moved) {
            boolean atOnce = !recreated && observed.replacedBy(current) && now - lastReadNanos >= quietNanos;
            observed = current;
            directories.register(); // a symlink may now point into another directory
            if (atOnce && readAndDeliver(false)) {
              settleAt = 0;
              continue;
            }
            // Otherwise (re)start the quiet period; a burst keeps pushing it out.
            settleAt = now + quietNanos;
            continue;
          }
        }
        if (settleAt != 0 && now - settleAt >= 0) {
          Observation current = Observation.of(path);
          if (current.equals(observed) && readAndDeliver(false)) {
            settleAt = 0;
          } else {
            observed = Observation.of(path);
            settleAt = nanoTime.getAsLong() + quietNanos;
          }
        }
      }
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // close() was called.
    } finally {
      readPending = false;
    }
  }

  private RegularFile.Read read() {
    return RegularFile.read(path, maxBytes);
  }

  /**
   * The file's content now, by the watcher's rules (a regular file within {@code maxBytes},
   * symlinks followed), for a one-off reader such as {@code signalbox validate}: what it refuses
   * is what a watcher refuses, and it never blocks on a FIFO nor reads a device.
   */
  public static Event readNow(Path path, long maxBytes) {
    RegularFile.Read read = RegularFile.read(path.toAbsolutePath().normalize(), maxBytes);
    if (read instanceof RegularFile.Read.Bytes bytes) {
      return new Event.Content(bytes.bytes());
    }
    return read instanceof RegularFile.Read.Unusable unusable ? new Event.Unusable(unusable.reason()) : new Event.Missing();
  }

  /**
   * Reads the file and delivers it if it differs from what was last delivered. Returns false when the
   * file moved while being read, so the caller waits for another quiet period.
   */
  private boolean readAndDeliver(boolean evenIfMoving) {
    Observation before = observed;
    RegularFile.Read read = read();
    Observation after = Observation.of(path);
    if (!after.equals(before)) {
      observed = after;
      if (!evenIfMoving) {
        return false;
      }
    }
    lastReadNanos = nanoTime.getAsLong();
    recreated = false;
    delivered.news(read, after == Observation.MISSING).ifPresent(news -> {
      if (news instanceof Event.Unusable unusable) {
        log.warn("{} {}", path, unusable.reason());
      }
      deliver(news);
    });
    return true;
  }

  private void deliver(Event event) {
    try {
      callback.accept(event);
    } catch (RuntimeException e) {
      // The watcher must outlive a faulty consumer; the next change is delivered again.
      log.error("callback for {} failed on {}", path, event, e);
    }
  }

}
