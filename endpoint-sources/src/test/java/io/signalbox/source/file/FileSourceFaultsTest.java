package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.Restarts;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an endpoint file source does with input nobody planned for (issue 29): whatever is at the
 * path, and whatever its thread meets, it reports FAILED with the reason, keeps its last good
 * endpoints, and is FRESH again once the file is fine. One test per fault class.
 */
class FileSourceFaultsTest {

  private static final WatchedFile.Timing FAST = new WatchedFile.Timing(Duration.ofMillis(50), Duration.ofMillis(200));
  private static final Restarts QUICK_RESTARTS = new Restarts(Duration.ofMillis(50), Duration.ofMillis(200));
  private static final String GOOD = "clusters:\n  web:\n    - { address: 10.0.0.1, port: 8080, zone: a }\n";
  private static final String FIXED = "clusters:\n  web:\n    - { address: 10.0.0.1, port: 8081, zone: a }\n";

  @TempDir Path dir;

  private final List<SourceState> states = new CopyOnWriteArrayList<>();
  private FileEndpointSource source;
  private Path file;

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10));
  }

  private void start(long maxBytes, Consumer<SourceState> publish) throws IOException {
    file = dir.resolve("endpoints.yaml");
    Files.writeString(file, GOOD);
    source = new FileEndpointSource(file, FAST, maxBytes, QUICK_RESTARTS);
    source.start(publish);
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
  }

  private void start() throws IOException {
    start(WatchedFile.DEFAULT_MAX_BYTES, states::add);
  }

  private SourceState last() {
    return states.get(states.size() - 1);
  }

  private Map<String, List<EndpointSpec>> web(int port) {
    return Map.of("web", List.of(new EndpointSpec("10.0.0.1", port, "a", 1, 0, EndpointState.READY, "file:" + file)));
  }

  private void replaceWith(ThrowingAction fault) throws Exception {
    Files.delete(file);
    fault.run();
  }

  private interface ThrowingAction {
    void run() throws Exception;
  }

  /** FAILED with exactly {@code message}, the first file's endpoints kept; then the fixed file is read. */
  private void assertFailedThenRecovers(String message) throws IOException {
    eventually().until(() -> last().health() == SourceHealth.FAILED && !last().problems().isEmpty()
        && last().problems().get(0).rule().equals(FileEndpointSource.RULE_UNUSABLE));
    assertThat(last().problems()).extracting(Violation::toString)
        .containsExactly(file + ": " + message + "; keeping the last good endpoints [source.unusable]");
    assertThat(last().endpoints()).isEqualTo(web(8080));
    restore();
  }

  private void restore() throws IOException {
    if (Files.isDirectory(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(file);
    }
    Path tmp = dir.resolve("fixed.tmp");
    Files.writeString(tmp, FIXED);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    eventually().until(() -> last().health() == SourceHealth.FRESH);
    assertThat(last().endpoints()).isEqualTo(web(8081));
    assertThat(last().problems()).isEmpty();
  }

  @Test
  void aDirectoryInPlaceOfTheFileIsFailedNotFresh() throws Exception {
    start();

    replaceWith(() -> Files.createDirectory(file));

    assertFailedThenRecovers("is a directory, not a regular file");
  }

  @Test
  void aSymlinkToADirectoryIsFailed() throws Exception {
    start();
    Path sub = Files.createDirectory(dir.resolve("sub"));

    replaceWith(() -> Files.createSymbolicLink(file, sub));

    eventually().until(() -> last().health() == SourceHealth.FAILED && !last().problems().isEmpty()
        && last().problems().get(0).rule().equals(FileEndpointSource.RULE_UNUSABLE));
    assertThat(last().problems().get(0).message()).isEqualTo("is a directory, not a regular file; keeping the last good endpoints");
    Files.delete(file);
    restore();
  }

  @Test
  void aFifoDoesNotBlockTheWatcher() throws Exception {
    start();
    replaceWith(() -> {
      Process mkfifo;
      try {
        mkfifo = new ProcessBuilder("mkfifo", file.toString()).redirectErrorStream(true).start();
      } catch (IOException e) {
        Assumptions.abort("mkfifo is not available: " + e.getMessage());
        return;
      }
      Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo failed");
    });

    assertFailedThenRecovers("is not a regular file (a FIFO, socket or device)");
  }

  @Test
  void aSymlinkToDevZeroIsRefusedWithoutReadingIt() throws Exception {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero");
    start();

    replaceWith(() -> Files.createSymbolicLink(file, Path.of("/dev/zero")));

    assertFailedThenRecovers("is not a regular file (a FIFO, socket or device)");
  }

  @Test
  void aSymlinkLoopIsFailedWithTheSystemsReason() throws Exception {
    start();

    replaceWith(() -> Files.createSymbolicLink(file, file));

    eventually().until(() -> last().health() == SourceHealth.FAILED && !last().problems().isEmpty()
        && last().problems().get(0).rule().equals(FileEndpointSource.RULE_UNUSABLE));
    assertThat(last().problems().get(0).message()).startsWith("cannot be read: Too many levels of symbolic links");
    assertThat(last().endpoints()).isEqualTo(web(8080));
    Files.delete(file);
    restore();
  }

  @Test
  void aFileOverTheSizeLimitIsNotRead() throws Exception {
    start(200, states::add);
    String big = GOOD + "#".repeat(300) + "\n";

    replaceWith(() -> Files.writeString(file, big));

    assertFailedThenRecovers("is " + big.length() + " bytes, over the limit of 200 bytes");
  }

  @Test
  void anUnreadableFileIsFailed() throws Exception {
    start();
    Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");

    replaceWith(() -> {
      Files.writeString(file, FIXED);
      Files.setPosixFilePermissions(file, java.util.Set.of());
    });

    assertFailedThenRecovers("cannot be read: permission denied");
  }

  @Test
  void aDuplicateAddressAndABadPortAreBothReportedAndTheFileIsRefused() throws Exception {
    start();

    Files.writeString(file, """
        clusters:
          web:
            - { address: 10.0.0.1, port: 8080, weight: 1 }
            - { address: 10.0.0.1, port: 8080, weight: 5, zone: b }
            - { address: 10.0.0.2, port: 70000 }
        """);

    eventually().until(() -> last().health() == SourceHealth.FAILED);
    String origin = "file:" + file;
    assertThat(last().problems()).extracting(Violation::toString).containsExactly(
        origin + ": endpoints of cluster 'web'[1] (10.0.0.1:8080): duplicate endpoint 10.0.0.1:8080 (also at [0]) "
            + "[duplicate.endpoint]",
        origin + ": endpoints of cluster 'web'[2] (10.0.0.2:70000): port: must be <= 65535, was 70000 [range]");
    assertThat(last().endpoints()).isEqualTo(web(8080));
    restore();
  }

  @Test
  void aQuotedPortAndALowerCaseStateAreRefusedNotCoerced() throws Exception {
    start();

    Files.writeString(file, """
        clusters:
          greeter:
            - { address: 10.0.0.1, port: "50051", state: ready }
        """);

    eventually().until(() -> last().health() == SourceHealth.FAILED);
    assertThat(last().problems()).extracting(Violation::toString).containsExactly(
        file + ": line 3, column 34: clusters.greeter[0].port: expected an integer, was the string \"50051\" "
            + "(write it without quotes) [parse]",
        file + ": line 3, column 50: clusters.greeter[0].state: expected one of WARMING, READY, DEGRADED, DRAINING, "
            + "EJECTED, was 'ready' (names are case-sensitive: write READY) [parse]");
    assertThat(last().endpoints()).isEqualTo(web(8080));
    restore();
  }

  @Test
  void aFailureOfTheWatchersThreadIsFailedThenRestarted() throws Exception {
    AtomicBoolean failNext = new AtomicBoolean();
    start(WatchedFile.DEFAULT_MAX_BYTES, state -> {
      if (failNext.compareAndSet(true, false)) {
        // An Error, which nothing on the way catches: the thread would die with it.
        throw new AssertionError("injected failure");
      }
      states.add(state);
    });
    failNext.set(true);

    Files.writeString(file, FIXED);

    eventually().until(() -> last().health() == SourceHealth.FAILED);
    assertThat(last().problems()).extracting(Violation::message).containsExactly(
        "the source's thread failed (java.lang.AssertionError: injected failure); restarting in 50 ms; "
            + "keeping the last good endpoints");
    // Restarted: the file is read again, although its content did not change since the failure.
    eventually().until(() -> last().health() == SourceHealth.FRESH);
    assertThat(last().endpoints()).isEqualTo(web(8081));
    // And it keeps watching.
    Files.writeString(file, GOOD);
    eventually().until(() -> last().endpoints().equals(web(8080)));
  }
}
