package io.signalbox.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.model.EndpointSpec;
import io.signalbox.model.EndpointState;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileEndpointSourceTest {

  private static final WatchedFile.Timing FAST = new WatchedFile.Timing(Duration.ofMillis(50), Duration.ofSeconds(1));

  @TempDir Path dir;

  private final List<SourceState> states = new CopyOnWriteArrayList<>();
  private FileEndpointSource source;

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10));
  }

  private static String yaml(int... ports) {
    StringBuilder out = new StringBuilder("clusters:\n  web:\n");
    for (int port : ports) {
      out.append("    - { address: 10.0.0.1, port: ").append(port).append(", zone: a }\n");
    }
    return out.toString();
  }

  private Map<String, List<EndpointSpec>> endpoints(Path file, int... ports) {
    String origin = "file:" + file.toAbsolutePath();
    List<EndpointSpec> list = new java.util.ArrayList<>();
    for (int port : ports) {
      list.add(new EndpointSpec("10.0.0.1", port, "a", 1, 0, EndpointState.READY, origin));
    }
    return Map.of("web", list);
  }

  private SourceState last() {
    return states.get(states.size() - 1);
  }

  private Path start(String content, WatchedFile.Timing timing) throws IOException {
    Path file = dir.resolve("endpoints.yaml");
    Files.writeString(file, content);
    source = new FileEndpointSource(file, timing);
    source.start(states::add);
    return file;
  }

  private void replaceByRename(Path file, String content) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, content);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private void assertGenerationsIncrease() {
    for (int i = 1; i < states.size(); i++) {
      assertThat(states.get(i).generation()).isGreaterThan(states.get(i - 1).generation());
    }
  }

  @Test
  void publishesTheFileBeforeStartReturns() throws IOException {
    Path file = start(yaml(8080), FAST);

    assertThat(states)
        .containsExactly(
            new SourceState("file:" + file.toAbsolutePath(), 1, SourceHealth.FRESH, endpoints(file, 8080), List.of()));
    assertThat(source.id()).isEqualTo("file:" + file.toAbsolutePath());
  }

  @Test
  void reloadsAFileReplacedByRename() throws IOException {
    Path file = start(yaml(8080), FAST);

    replaceByRename(file, yaml(8080, 8081));

    eventually().until(() -> last().endpoints().equals(endpoints(file, 8080, 8081)));
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertGenerationsIncrease();
  }

  @Test
  void publishesAFileReplacedByRenameWithoutWaitingForTheQuietPeriod() throws IOException {
    // No test waits an hour: only a read that skips the quiet period can publish this in time.
    Path file = start(yaml(8080), new WatchedFile.Timing(Duration.ofHours(1), Duration.ofHours(1)));

    replaceByRename(file, yaml(8080, 8081));

    eventually().until(() -> last().endpoints().equals(endpoints(file, 8080, 8081)));
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertThat(states).hasSize(2);
  }

  @Test
  void keepsLastGoodEndpointsWhenTheFileBecomesInvalid() throws IOException {
    Path file = start(yaml(8080), FAST);

    replaceByRename(file, "clusters:\n  web:\n    - { address: 10.0.0.1, prot: 1 }\n");

    eventually().until(() -> last().health() == SourceHealth.FAILED);
    assertThat(last().endpoints()).isEqualTo(endpoints(file, 8080));
    assertThat(last().problems().stream().map(Violation::toString))
        .containsExactly(
            file.toAbsolutePath()
                + ": line 3, column 28: clusters.web[0].prot: unknown key 'prot' (did you mean 'port'?) [parse]");
  }

  @Test
  void finishedInPlaceWriteReplacesAnUnparseablePartialOne() throws IOException {
    Path file = start(yaml(8080), FAST);
    String complete = yaml(9090, 9091);
    int cut = complete.indexOf("9091") - 3; // inside the second flow mapping: not YAML on its own

    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(ByteBuffer.wrap(complete.substring(0, cut).getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
      // The half file settles and is rejected; the last good endpoints stay.
      eventually().until(() -> last().health() == SourceHealth.FAILED);
      assertThat(last().endpoints()).isEqualTo(endpoints(file, 8080));

      channel.write(ByteBuffer.wrap(complete.substring(cut).getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
    }

    eventually().until(() -> last().health() == SourceHealth.FRESH && last().endpoints().equals(endpoints(file, 9090, 9091)));
    assertThat(states).allSatisfy(s -> assertThat(s.endpoints()).isIn(endpoints(file, 8080), endpoints(file, 9090, 9091)));
    assertGenerationsIncrease();
  }

  @Test
  void neverPublishesAFileStillBeingWrittenInPlace() throws IOException {
    // A long quiet period so the writer's two chunks land well inside it.
    Path file = start(yaml(8080), new WatchedFile.Timing(Duration.ofMillis(500), Duration.ofSeconds(1)));
    String complete = yaml(9090, 9091);
    int cut = complete.indexOf("    - { address: 10.0.0.1, port: 9091"); // the half alone is valid YAML

    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(ByteBuffer.wrap(complete.substring(0, cut).getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
      channel.write(ByteBuffer.wrap(complete.substring(cut).getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
    }

    eventually().until(() -> last().endpoints().equals(endpoints(file, 9090, 9091)));
    assertThat(states).extracting(SourceState::endpoints).containsExactly(endpoints(file, 8080), endpoints(file, 9090, 9091));
  }

  @Test
  void deletedFileIsStaleWithLastGoodEndpointsUntilRecreated() throws IOException {
    Path file = start(yaml(8080), FAST);

    Files.delete(file);

    eventually().until(() -> last().health() == SourceHealth.STALE);
    assertThat(last().endpoints()).isEqualTo(endpoints(file, 8080));
    assertThat(last().problems())
        .containsExactly(
            Violation.error(
                FileEndpointSource.RULE_MISSING, file.toAbsolutePath().toString(), "",
                "file not found; keeping the last good endpoints"));

    Files.writeString(file, yaml(7070));

    eventually().until(() -> last().health() == SourceHealth.FRESH);
    assertThat(last().endpoints()).isEqualTo(endpoints(file, 7070));
    assertGenerationsIncrease();
  }

  @Test
  void missingFromTheStartIsFailedAndEmpty() {
    Path file = dir.resolve("absent.yaml");
    source = new FileEndpointSource(file, FAST);
    source.start(states::add);

    assertThat(states).hasSize(1);
    assertThat(last().health()).isEqualTo(SourceHealth.FAILED);
    assertThat(last().endpoints()).isEmpty();
  }

  @Test
  void followsAKubernetesStyleSymlinkSwap() throws IOException {
    // The layout a ConfigMap volume uses: name -> ..data/name, ..data -> ..<timestamp>/
    Path first = Files.createDirectory(dir.resolve("..2024_01_01_00_00_00.1"));
    Files.writeString(first.resolve("endpoints.yaml"), yaml(8080));
    Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
    Path file = dir.resolve("endpoints.yaml");
    Files.createSymbolicLink(file, Path.of("..data/endpoints.yaml"));
    source = new FileEndpointSource(file, FAST);
    source.start(states::add);
    assertThat(last().endpoints()).isEqualTo(endpoints(file, 8080));

    Path second = Files.createDirectory(dir.resolve("..2024_01_01_00_00_01.2"));
    Files.writeString(second.resolve("endpoints.yaml"), yaml(8080, 8081));
    Files.createSymbolicLink(dir.resolve("..data_tmp"), second.getFileName());
    Files.move(dir.resolve("..data_tmp"), dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.delete(first.resolve("endpoints.yaml"));
    Files.delete(first);

    eventually().until(() -> last().endpoints().equals(endpoints(file, 8080, 8081)));
    assertThat(last().health()).isEqualTo(SourceHealth.FRESH);
    assertThat(states).noneMatch(s -> s.health() == SourceHealth.STALE);
  }

  @Test
  void coalescesABurstOfWrites() throws IOException {
    Path file = start(yaml(8000), new WatchedFile.Timing(Duration.ofMillis(200), Duration.ofSeconds(1)));

    for (int port = 8001; port <= 8030; port++) {
      replaceByRename(file, yaml(port));
    }

    eventually().until(() -> last().endpoints().equals(endpoints(file, 8030)));
    // 30 writes well inside one quiet period: one state for the burst (a few on a stalled machine).
    assertThat(states.size() - 1).isBetween(1, 5);
    assertThat(states).allMatch(s -> s.health() == SourceHealth.FRESH);
    assertGenerationsIncrease();
  }
}
