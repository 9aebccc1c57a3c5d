package io.signalbox.controlplane.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Rewrites one file, generation after generation, the two ways operators' tooling does: replaced
 * by rename (a complete file moved into place), or written in place (truncated, then written in
 * two chunks with a pause between, so a careless reader would see half a file). Which way, and
 * the pause before the next edit, are drawn from a seeded {@link Random}. Runs on its own thread
 * between {@link #start} and {@link #stop}, or one edit at a time with {@link #write}.
 */
final class FileEditor {

  private final Path file;
  private final IntFunction<String> content;
  private final Random random;
  private final Duration minGap;
  private final Duration maxGap;
  private final AtomicInteger generation = new AtomicInteger();
  private final AtomicInteger renames = new AtomicInteger();
  private final AtomicInteger inPlace = new AtomicInteger();
  private volatile Thread thread;
  private volatile boolean running;

  /**
   * @param content the file's content at a generation (1, 2, ...)
   * @param minGap the shortest pause between two edits
   * @param maxGap the longest
   */
  FileEditor(Path file, IntFunction<String> content, long seed, Duration minGap, Duration maxGap) {
    this.file = file;
    this.content = content;
    this.random = new Random(seed);
    this.minGap = minGap;
    this.maxGap = maxGap;
  }

  /** Writes the next generation now, on the calling thread; returns it. */
  synchronized int write() {
    int next = generation.get() + 1;
    byte[] bytes = content.apply(next).getBytes(StandardCharsets.UTF_8);
    try {
      if (random.nextBoolean() || !Files.exists(file)) {
        Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        renames.incrementAndGet();
      } else {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
          int half = bytes.length / 2;
          channel.write(ByteBuffer.wrap(bytes, 0, half));
          // A slow writer: the first half sits there on its own for a moment.
          TimeUnit.MILLISECONDS.sleep(2 + random.nextInt(20));
          channel.write(ByteBuffer.wrap(bytes, half, bytes.length - half));
        }
        inPlace.incrementAndGet();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("editing " + file, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while editing " + file, e);
    }
    generation.set(next);
    return next;
  }

  /** Edits in the background until {@link #stop}. */
  void start() {
    running = true;
    Thread t = new Thread(() -> {
      while (running) {
        write();
        long gap = minGap.toMillis() + (long) (random.nextDouble() * (maxGap.toMillis() - minGap.toMillis()));
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(gap);
        while (running && System.nanoTime() < until) {
          java.util.concurrent.locks.LockSupport.parkNanos(Math.min(until - System.nanoTime(), 5_000_000L));
        }
      }
    }, "file-editor:" + file.getFileName());
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** Stops the background edits; returns once the last one is complete (never half a file). */
  void stop() {
    running = false;
    Thread t = thread;
    if (t != null) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      thread = null;
    }
  }

  /** The newest generation written completely. */
  int generation() {
    return generation.get();
  }

  int renames() {
    return renames.get();
  }

  int inPlace() {
    return inPlace.get();
  }
}
