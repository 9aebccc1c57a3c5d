package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalbox status} shows every hold with what releases it (issue 42): a drain held by a
 * guard, the guard's held update and the freeze each get a {@code held} row and a {@code released
 * by} row, in the words of {@code status.holds}.
 */
class StatusHoldsTest {

  private static final String GUARD = "cluster 'greeter': would have 0 eligible endpoint(s), fewer than "
      + "minEligible 1 (has 1)";

  @TempDir Path dir;
  RunningSignalbox sb;

  @AfterEach
  void stop() {
    if (sb != null) {
      sb.close();
    }
  }

  @Test
  void aDrainHeldByAGuardAndTheHeldUpdateAreInTheTableWithWhatReleasesThem() {
    sb = RunningSignalbox.start(dir, 1, "", "");

    Cli.Run drain = Cli.against(sb, "drain", "greeter", "127.0.0.1:50001", "--reason", "kernel");
    assertThat(drain.exit()).as(drain.out() + drain.err()).isEqualTo(1);

    Cli.Run status = Cli.against(sb, "status");
    assertThat(status.exit()).as(status.err()).isZero();
    assertThat(status.outLines()).containsSubsequence(
        "held              update greeter: " + GUARD + " [guard.min-eligible]",
        "                  released by 'signalbox confirm greeter' lets it through, or another endpoint of greeter "
            + "becoming eligible");
    assertThat(status.outLines()).containsSubsequence(
        "held              drain greeter/127.0.0.1:50001: drained by anonymous: kernel, in no epoch yet: " + GUARD
            + " [guard.min-eligible]",
        "                  released by 'signalbox confirm greeter' lets the held update through, or another endpoint "
            + "of greeter becoming eligible; 'signalbox undrain greeter 127.0.0.1:50001' withdraws it");

    assertThat(Cli.against(sb, "undrain", "greeter", "127.0.0.1:50001").exit()).isZero();
    await().atMost(Duration.ofSeconds(10))
        .until(() -> Cli.against(sb, "status").outLines().stream().noneMatch(l -> l.startsWith("held ")));
  }

  @Test
  void theFreezeIsAHoldReleasedByUnfreezeAndTheServedEpochDiffersFromTheInputs() {
    sb = RunningSignalbox.start(dir, 2, "", "");
    assertThat(Cli.against(sb, "freeze", "--reason", "incident 7").exit()).isZero();
    long frozenAt = sb.epoch();

    Cli.Run status = Cli.against(sb, "status");

    assertThat(status.outLines()).containsSubsequence(
        "held              freeze publishing: no epoch is published; frozen by anonymous: incident 7 [freeze]",
        "                  released by 'signalbox unfreeze' publishes what the inputs say now");
    assertThat(status.outLines()).anySatisfy(l -> assertThat(l).startsWith("served differs    publishing is frozen by "
        + "anonymous (incident 7): epoch " + frozenAt + " is served; inputs that change wait since "));
    assertThat(status.outLines()).contains("                  forward: 'signalbox unfreeze' publishes what the inputs say");
  }
}
