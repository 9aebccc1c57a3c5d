package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Usage errors exit 2 with one line naming what was wrong, whatever else is on the command line. */
class UsageErrorsTest {

  @Test
  void anUnknownCommandWithHelpIsAnUnknownCommandNotTheTopLevelHelp() {
    Cli.Run run = Cli.run("reticulate", "--help");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("signalbox: Unknown command 'reticulate'; 'signalbox --help' lists the commands\n");
  }

  @Test
  void helpOfAKnownCommandStillAnswers() {
    Cli.Run run = Cli.run("diff", "--help");

    assertThat(run.exit()).isZero();
    assertThat(run.outLines().get(0)).startsWith("Usage: signalbox diff");
  }

  @Test
  void topLevelHelpStillAnswers() {
    Cli.Run run = Cli.run("--help");

    assertThat(run.exit()).isZero();
    assertThat(run.outLines().get(0)).startsWith("Usage: signalbox");
  }
}
