package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {

  private static final WatchedFile.Timing FAST = new WatchedFile.Timing(Duration.ofMillis(50), Duration.ofSeconds(1));

  @TempDir Path dir;

  private final List<WatchedFile.Event> events = new CopyOnWriteArrayList<>();

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
}
