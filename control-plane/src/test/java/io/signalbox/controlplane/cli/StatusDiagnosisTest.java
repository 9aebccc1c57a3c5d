package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.reconcile.LastRejection;
import io.signalbox.source.SourceHealth;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code status} says about bad input stays current (issue 29): a source's problem is in the
 * table, a rejection names its input, is not overwritten while that input stays invalid, and says
 * when the input is valid again.
 */
class StatusDiagnosisTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @AfterEach
  void stop() {
    if (sb != null) {
      sb.close();
    }
  }

  private String fileId() {
    return "file:" + dir.resolve("endpoints.yaml").toAbsolutePath().normalize();
  }

  private LastRejection lastRejection() {
    return sb.server.reconciler().status().lastRejection();
  }

  /** Endpoints whose only priority is 1: each endpoint is fine, the merged cluster skips priority 0. */
  private static String priorityGap(int port) {
    return "clusters:\n  greeter:\n    - { address: 127.0.0.1, port: " + port + ", zone: a, priority: 1 }\n";
  }

  @Test
  void statusPrintsASourcesParseErrorInItsTable() {
    sb = RunningSignalbox.start(dir, 1, "", "");
    String file = dir.resolve("endpoints.yaml").toAbsolutePath().normalize().toString();

    RunningSignalbox.write(dir, "endpoints.yaml", "clusters:\n  greeter: [ { address: 127.0.0.1\n");
    await().atMost(Duration.ofSeconds(10))
        .until(() -> sb.server.reconciler().status().sources().get(fileId()) == SourceHealth.FAILED);

    Cli.Run run = Cli.against(sb, "status");
    assertThat(run.exit()).as(run.err()).isZero();
    List<String> lines = run.outLines();
    int source = indexOf(lines, "source  " + fileId() + " FAILED");
    assertThat(source).as(run.out()).isNotNegative();
    assertThat(lines.get(source + 1).strip()).startsWith(file + ": line 3, column 1: YAML syntax error: ");
  }

  @Test
  void aDuplicateEndpointIsRefusedByTheSourceAndShownInStatus() {
    sb = RunningSignalbox.start(dir, 1, "", "");
    long epoch = sb.epoch();

    RunningSignalbox.write(dir, "endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50001, zone: a }
            - { address: 127.0.0.1, port: 50001, zone: b, weight: 7 }
        """);
    await().atMost(Duration.ofSeconds(10))
        .until(() -> sb.server.reconciler().status().sources().get(fileId()) == SourceHealth.FAILED);

    assertThat(sb.server.reconciler().status().sourceProblems().get(fileId())).containsExactly(
        fileId() + ": endpoints of cluster 'greeter'[1] (127.0.0.1:50001): duplicate endpoint 127.0.0.1:50001 "
            + "(also at [0]) [duplicate.endpoint]");
    assertThat(Cli.against(sb, "status").out()).contains("duplicate endpoint 127.0.0.1:50001 (also at [0])");
    assertThat(sb.epoch()).isEqualTo(epoch);
  }

  @Test
  void aRejectionNamesItsInputKeepsItsCauseAndIsSupersededWhenTheInputIsValidAgain() {
    sb = RunningSignalbox.start(dir, 1, "", "");
    long epoch = sb.epoch();

    RunningSignalbox.write(dir, "endpoints.yaml", priorityGap(50001));
    await().atMost(Duration.ofSeconds(10)).until(() -> lastRejection() != null);
    LastRejection first = lastRejection();
    assertThat(first.inputs()).containsExactly(fileId());
    assertThat(first.cause()).startsWith("source " + fileId() + " generation ");
    assertThat(first.superseded()).isFalse();

    // The writer builds again for another reason while the file stays invalid: the same rejection.
    long finished = sb.server.reconciler().buildsFinished();
    sb.server.reload();
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.server.reconciler().buildsFinished() > finished);
    assertThat(lastRejection()).isEqualTo(first);
    assertThat(sb.epoch()).isEqualTo(epoch);

    RunningSignalbox.write(dir, "endpoints.yaml", RunningSignalbox.endpoints(2));
    await().atMost(Duration.ofSeconds(10)).until(() -> lastRejection().superseded());
    assertThat(lastRejection().violations()).isEqualTo(first.violations());
    Cli.Run run = Cli.against(sb, "status");
    assertThat(run.out()).contains("(about " + fileId() + "); superseded at ");
  }

  private static int indexOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).replaceAll(" {2,}", "  ").strip().startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }
}
