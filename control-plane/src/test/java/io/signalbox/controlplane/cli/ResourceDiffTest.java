package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.RunningSignalbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diff} names the field of a changed cluster, route configuration or listener and both its
 * values, as it does for endpoints (issue 42: {@code ~ CLUSTER/demo-cluster} said nothing more).
 */
class ResourceDiffTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @AfterEach
  void stop() {
    if (sb != null) {
      sb.close();
    }
  }

  @Test
  void aChangedClusterIsDiffedFieldByField() throws IOException {
    sb = RunningSignalbox.start(dir, 2, "", "");
    long before = sb.epoch();
    String config = Files.readString(dir.resolve("signalbox.yaml"));
    RunningSignalbox.write(dir, "signalbox.yaml", config.replace("connectTimeout: 1s", "connectTimeout: 2500ms")
        .replace("lbPolicy: ROUND_ROBIN", "lbPolicy: LEAST_REQUEST"));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.epoch() > before);
    long after = sb.epoch();

    Cli.Run diff = Cli.against(sb, "diff", Long.toString(before), Long.toString(after));

    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.outLines()).contains(
        "~ CLUSTER/greeter lb_policy ROUND_ROBIN -> LEAST_REQUEST",
        "~ CLUSTER/greeter connect_timeout 1s -> 2.500s");
    assertThat(diff.outLines()).noneMatch(l -> l.equals("~ CLUSTER/greeter"));
  }
}
