package io.signalbox.controlplane.cli;

import java.util.List;
import picocli.CommandLine;

/**
 * Refuses a first argument that names no command, also beside {@code --help}: picocli lets the
 * help option win over the unmatched word, so {@code signalbox shed --help} printed the top-level
 * help and exited 0, as if {@code shed} existed and had nothing to say.
 */
public final class UnknownCommands {

  private UnknownCommands() {}

  /** {@code next}, unless the top-level command was given a word that is none of its commands: then exit 2. */
  public static CommandLine.IExecutionStrategy refusing(CommandLine.IExecutionStrategy next) {
    return parsed -> {
      List<String> unmatched = parsed.unmatched();
      if (parsed.hasSubcommand() || unmatched.isEmpty()) {
        return next.execute(parsed);
      }
      String first = unmatched.get(0);
      CommandLine cli = parsed.commandSpec().commandLine();
      cli.getErr().println("signalbox: Unknown " + (first.startsWith("-") ? "option" : "command") + " '" + first
          + "'; 'signalbox --help' lists the commands");
      cli.getErr().flush();
      return 2;
    };
  }
}
