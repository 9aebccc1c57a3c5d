package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.Main;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

  /** A command still running on another thread; its output can be read while it runs. */
  record Started(StringWriter out, StringWriter err, CompletableFuture<Integer> exit) {

    Run await(Duration timeout) throws Exception {
      int code = exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new Run(code, out.toString(), err.toString());
    }
  }

  private Cli() {}

  /** {@code args} against {@code server}, on another thread. */
  static Started start(RunningSignalbox server, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(server.url());
    return new Started(out, err, CompletableFuture.supplyAsync(() -> cli.execute(all.toArray(String[]::new))));
  }

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
