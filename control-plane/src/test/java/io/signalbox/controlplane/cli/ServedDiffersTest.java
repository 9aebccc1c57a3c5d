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
 * After a rollback (the freeze: {@link StatusHoldsTest}), {@code status} and {@code epochs} say that the served configuration
 * differs from the inputs, since when and how to go forward; the rollback's epoch names the epoch
 * it returned to and why (issue 42: a rollback right after a fix undid it, and nothing said so).
 */
class ServedDiffersTest {

  @TempDir Path dir;
  RunningSignalbox sb;

  @AfterEach
  void stop() {
    if (sb != null) {
      sb.close();
    }
  }

  private long editConfig(String from, String to) throws IOException {
    long before = sb.epoch();
    String config = Files.readString(dir.resolve("signalbox.yaml"));
    assertThat(config).contains(from);
    RunningSignalbox.write(dir, "signalbox.yaml", config.replace(from, to));
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.epoch() > before);
    return sb.epoch();
  }

  @Test
  void aRollbackSaysWhatItServedAndHowToGoForwardUntilAnEditLiftsIt() throws IOException {
    sb = RunningSignalbox.start(dir, 2, "", "");
    long good = sb.epoch();
    long fixed = editConfig("connectTimeout: 1s", "connectTimeout: 2s");

    Cli.Run rollback = Cli.against(sb, "rollback", "--to", Long.toString(good), "--reason", "bad route");
    assertThat(rollback.exit()).as(rollback.err()).isZero();
    await().atMost(Duration.ofSeconds(10)).until(() -> sb.epoch() > fixed);
    long rolledBack = sb.epoch();

    String why = "rollback to epoch " + good + " by anonymous: bad route";
    Cli.Run epochs = Cli.against(sb, "epochs", "--limit", "2");
    assertThat(epochs.exit()).as(epochs.err()).isZero();
    assertThat(epochs.outLines().get(1)).startsWith(rolledBack + " ").contains(why);
    String differs = "served differs  CLUSTER/greeter served as in epoch " + good + ", not as the inputs say (" + why
        + ") since ";
    String forward = "                forward: an edit of the config that changes it serves the inputs again for it; "
        + "'signalbox rollback --to N' serves epoch N's instead";
    assertThat(epochs.outLines()).anySatisfy(l -> assertThat(l).startsWith(differs));
    assertThat(epochs.outLines()).contains(forward);
    assertThat(Cli.against(sb, "status").outLines()).anySatisfy(l -> assertThat(l).startsWith(differs.replace(
        "served differs  ", "served differs    ")));

    editConfig("connectTimeout: 2s", "connectTimeout: 3s");
    await().atMost(Duration.ofSeconds(10))
        .until(() -> Cli.against(sb, "status").outLines().stream().noneMatch(l -> l.startsWith("served differs")));
  }
}
