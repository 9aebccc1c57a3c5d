package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {

  private static final WatchedFile.Timing FAST = new WatchedFile.Timing(Duration.ofMillis(50), Duration.ofSeconds(1));

  @TempDir Path dir;

  private final List<WatchedFile.Event> events = new CopyOnWriteArrayList<>();

  /** A quiet period no test waits out on its own: only advancing {@link #ticker} ends it. */
  private static final WatchedFile.Timing HOUR_QUIET = new WatchedFile.Timing(Duration.ofHours(1), Duration.ofHours(1));

  /** The watcher's time, moved by hand; it never moves by itself. */
  private final AtomicLong ticker = new AtomicLong();

  private final AtomicInteger noise = new AtomicInteger();

  private static WatchedFile.Event content(String text) {
    return new WatchedFile.Event.Content(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void deliversTheCurrentContentOnTheCallingThreadBeforeStartReturns() throws IOException {
    Path file = Files.writeString(dir.resolve("a.yaml"), "one");
    List<Thread> callers = new CopyOnWriteArrayList<>();

    try (WatchedFile watched = WatchedFile.start(file, FAST, e -> {
      callers.add(Thread.currentThread());
      events.add(e);
    })) {
      assertThat(events).containsExactly(content("one"));
      assertThat(callers).containsExactly(Thread.currentThread());
      assertThat(watched.path()).isEqualTo(file.toAbsolutePath());
    }
  }

  @Test
  void reportsAMissingFileAndItsCreation() throws IOException {
    Path file = dir.resolve("b.yaml");

    try (WatchedFile ignored = WatchedFile.start(file, FAST, events::add)) {
      assertThat(events).containsExactly(new WatchedFile.Event.Missing());
      Files.writeString(file, "hello");
      await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 2);
      assertThat(events).containsExactly(new WatchedFile.Event.Missing(), content("hello"));
    }
  }

  @Test
  void doesNotRedeliverUnchangedContent() throws IOException {
    Path file = Files.writeString(dir.resolve("c.yaml"), "same");

    try (WatchedFile ignored = WatchedFile.start(file, FAST, events::add)) {
      Files.writeString(file, "same"); // rewritten in place: new mtime, same bytes
      Files.writeString(dir.resolve("unrelated.txt"), "noise");
      Files.writeString(file, "different");
      await().atMost(Duration.ofSeconds(5)).until(() -> events.size() >= 2);
      assertThat(events).containsExactly(content("same"), content("different"));
    }
  }

  @Test
  void contentReadsAsUtf8Text() {
    assertThat(new WatchedFile.Event.Content("zone: zürich".getBytes(StandardCharsets.UTF_8)).text()).isEqualTo("zone: zürich");
  }

  @Test
  void closeStopsTheWatcherThreadPromptly() throws IOException {
    Path file = Files.writeString(dir.resolve("closing-test.yaml"), "x");
    WatchedFile watched = WatchedFile.start(file, FAST, events::add);
    assertThat(watcherThreads()).hasSize(1);

    watched.close();

    assertThat(watcherThreads()).isEmpty();
  }

  private static List<Thread> watcherThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("watched-file:closing-test.yaml") && t.isAlive())
        .toList();
  }

  @Test
  void readsAFileReplacedByRenameAtOnceWithoutWaitingForTheQuietPeriod() throws IOException {
    Path file = Files.writeString(dir.resolve("d.yaml"), "one");

    try (WatchedFile ignored = WatchedFile.start(file, HOUR_QUIET, ticker::get, events::add)) {
      replaceByRename(file, "two");

      // The watcher's clock never moves: only a read without a quiet period can deliver this.
      await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 2);
      assertThat(events).containsExactly(content("one"), content("two"));
    }
  }

  @Test
  void waitsTheQuietPeriodForAFileWrittenInPlace() throws IOException {
    Path file = Files.writeString(dir.resolve("e.yaml"), "one");

    try (WatchedFile watched = WatchedFile.start(file, HOUR_QUIET, ticker::get, events::add)) {
      Files.writeString(file, "two"); // truncate and write: the same inode

      assertDeliveredOnlyAfterTheQuietPeriod(watched, content("one"), content("two"));
    }
  }

  @Test
  void waitsTheQuietPeriodForAFileDeletedAndWrittenAnewUnderItsName() throws IOException {
    Path file = Files.writeString(dir.resolve("f.yaml"), "one");

    try (WatchedFile watched = WatchedFile.start(file, HOUR_QUIET, ticker::get, events::add)) {
      // What an editor that moves the old file away and writes a new one does: a new inode, written
      // in place, so possibly half-written when the watcher looks.
      Files.move(file, dir.resolve("f.yaml~"));
      Files.writeString(file, "two");

      assertDeliveredOnlyAfterTheQuietPeriod(watched, content("one"), content("two"));
    }
  }

  @Test
  void readsTheFirstReplacementAtOnceAndCoalescesTheRestOfABurst() throws IOException {
    Path file = Files.writeString(dir.resolve("g.yaml"), "one");

    try (WatchedFile watched = WatchedFile.start(file, HOUR_QUIET, ticker::get, events::add)) {
      replaceByRename(file, "two");
      await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 2);

      replaceByRename(file, "three");
      replaceByRename(file, "four");

      assertDeliveredOnlyAfterTheQuietPeriod(watched, content("one"), content("two"), content("four"));
    }
  }

  /**
   * The watcher has seen a change and waits for its quiet period, with everything but the last of
   * {@code expected} delivered; once its clock has moved by the quiet period, the last one is too.
   */
  private void assertDeliveredOnlyAfterTheQuietPeriod(WatchedFile watched, WatchedFile.Event... expected)
      throws IOException {
    await().atMost(Duration.ofSeconds(10)).until(watched::readPending);
    wakeWatcher();
    assertThat(events).containsExactly(Arrays.copyOf(expected, expected.length - 1));

    ticker.addAndGet(HOUR_QUIET.quietPeriod().toNanos());
    wakeWatcher();
    await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == expected.length);
    assertThat(events).containsExactly(expected);
  }

  private void replaceByRename(Path file, String text) throws IOException {
    Path tmp = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), text);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** An event in the watched directory: the watcher wakes and looks at its clock again. */
  private void wakeWatcher() throws IOException {
    Files.writeString(dir.resolve("noise.txt"), Integer.toString(noise.incrementAndGet()));
  }
}
