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
  void aTypoOfACommandGetsTheSameLineWithTheClosestCommand() {
    Cli.Run run = Cli.run("stauts");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(
        "signalbox: Unknown command 'stauts'; 'signalbox --help' lists the commands; did you mean 'status'?\n");
  }

  @Test
  void aWordNearNoCommandGetsTheSameLineWithoutASuggestion() {
    Cli.Run run = Cli.run("bogus", "extra");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("signalbox: Unknown command 'bogus'; 'signalbox --help' lists the commands\n");
  }

  @Test
  void aTypoBesideHelpGetsTheSameLine() {
    Cli.Run run = Cli.run("drian", "--help");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(
        "signalbox: Unknown command 'drian'; 'signalbox --help' lists the commands; did you mean 'drain'?\n");
  }

  @Test
  void anUnknownOptionOfACommandKeepsPicocliMessageAndTheUsage() {
    Cli.Run run = Cli.run("drain", "greeter", "10.0.0.1:50051", "--wiat");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines().get(0)).isEqualTo("Unknown option: '--wiat'");
    assertThat(run.errLines().get(1)).startsWith("Usage: signalbox drain");
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
