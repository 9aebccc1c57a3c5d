package io.signalbox.controlplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Progress printed only when it changes: rewritten in place on a terminal, a line per change elsewhere. */
class ProgressLineTest {

  private final StringWriter written = new StringWriter();

  @Test
  void intoAPipeEachChangeOfStateIsOneLineAndACountdownAloneIsNone() {
    ProgressLine line = new ProgressLine(new PrintWriter(written), false);

    line.show("0/3", "0 of 3, 30s until the deadline");
    line.show("0/3", "0 of 3, 29s until the deadline");
    line.show("2/3", "2 of 3, 29s until the deadline");
    line.show("2/3", "2 of 3, 28s until the deadline");
    line.end();

    assertThat(written.toString()).isEqualTo("0 of 3, 30s until the deadline\n2 of 3, 29s until the deadline\n");
  }

  @Test
  void onATerminalOneLineIsRewrittenWhenItsTextChangesAndEndedOnce() {
    ProgressLine line = new ProgressLine(new PrintWriter(written), true);

    line.show("0/3", "0 of 3, 30s");
    line.show("0/3", "0 of 3, 30s");
    line.show("0/3", "0 of 3, 29s");
    line.end();

    assertThat(written.toString()).isEqualTo("\r\u001b[K0 of 3, 30s\r\u001b[K0 of 3, 29s\n");
  }

  @Test
  void aNoteIsPrintedOnceAndTheProgressGoesOnBelowIt() {
    ProgressLine pipe = new ProgressLine(new PrintWriter(written), false);
    pipe.show("held", "held by guard.min-eligible");
    pipe.note("  released by 'signalbox confirm greeter'");
    pipe.show("held", "held by guard.min-eligible");
    assertThat(written.toString()).isEqualTo("held by guard.min-eligible\n  released by 'signalbox confirm greeter'\n");

    StringWriter screen = new StringWriter();
    ProgressLine terminal = new ProgressLine(new PrintWriter(screen), true);
    terminal.show("held", "held, 3s");
    terminal.note("  released by confirm");
    terminal.show("held", "held, 2s");
    assertThat(screen.toString()).isEqualTo("\r\u001b[Kheld, 3s\r\u001b[K  released by confirm\nheld, 3s\r\u001b[Kheld, 2s");
  }

  @Test
  void onATerminalNothingShownMeansNothingToEnd() {
    ProgressLine line = new ProgressLine(new PrintWriter(written), true);

    line.end();

    assertThat(written.toString()).isEmpty();
  }
}
