package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs the jar's command line in this JVM, as {@code main} would, capturing stdout and stderr. */
final class Cli {

  record Run(int exit, String out, String err) {

    List<String> outLines() {
      return out.lines().toList();
    }

    List<String> errLines() {
      return err.lines().toList();
    }
  }

  private Cli() {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** {@code args} against {@code server}. */
  static Run against(RunningSignalbox server, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(server.url());
    return run(all.toArray(String[]::new));
  }
}
