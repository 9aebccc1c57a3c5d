package io.signalbox.controlplane.cli;

import java.io.PrintWriter;

/**
 * Progress of a wait, printed only when it changes. On a terminal it is one line rewritten in
 * place (a countdown may tick in it); into a pipe or a file, one line per change of state, so a
 * deploy log shows each step once and never a countdown.
 */
final class ProgressLine {

  /** Carriage return, then erase to the end of the line: the terminal's "rewrite this line". */
  private static final String REWRITE = "\r\u001b[K";

  private final PrintWriter out;
  private final boolean terminal;
  private String lastState;
  private String lastText;

  ProgressLine(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  /** Whether standard output is an interactive terminal (Java 17: a console exists only then). */
  static boolean stdoutIsTerminal() {
    return System.console() != null;
  }

  /**
   * @param state what counts as a change (e.g. "2 of 3 acknowledged, deadline not passed")
   * @param text the line shown for it, which may say more (a countdown)
   */
  void show(String state, String text) {
    if (terminal) {
      if (!text.equals(lastText)) {
        out.print(REWRITE + text);
        out.flush();
      }
    } else if (!state.equals(lastState)) {
      out.println(text);
      out.flush();
    }
    lastState = state;
    lastText = text;
  }

  /**
   * A line printed once and kept: into a pipe, after the progress so far; on a terminal, in place
   * of the rewritten line, which is drawn again below it and goes on changing there.
   */
  void note(String text) {
    if (terminal) {
      out.print(REWRITE + text + System.lineSeparator() + (lastText == null ? "" : lastText));
    } else {
      out.println(text);
    }
    out.flush();
  }

  /** Ends the rewritten line on a terminal, so what follows starts on its own. */
  void end() {
    if (terminal && lastText != null) {
      out.println();
      out.flush();
    }
    lastText = null;
    lastState = null;
  }
}
