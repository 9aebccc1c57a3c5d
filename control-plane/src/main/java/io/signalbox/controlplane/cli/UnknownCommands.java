package io.signalbox.controlplane.cli;

import io.signalbox.validation.ClosestNames;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * A first word that names no command gets one line, the same whether it is a typo
 * ({@code stauts}), a word from nowhere ({@code bogus}) or stands beside {@code --help}: picocli
 * answers the first two with its own "Unmatched argument at index 0" and a loose "Did you mean"
 * (it offered {@code status} for {@code bogus}), and lets the help option win over the third, so
 * {@code signalbox shed --help} once printed the top-level help and exited 0 as if {@code shed}
 * existed. The suggestion follows the server's rule for mistyped names ({@link ClosestNames}).
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
      return refuse(parsed.commandSpec().commandLine(), unmatched.get(0));
    };
  }

  /**
   * {@code next}, unless the error is a word the top-level command does not know: then the same
   * line as {@link #refusing}. Unknown options of a command keep picocli's message and usage.
   */
  public static CommandLine.IParameterExceptionHandler refusing(CommandLine.IParameterExceptionHandler next) {
    return (error, args) -> {
      CommandLine cli = error.getCommandLine();
      if (error instanceof CommandLine.UnmatchedArgumentException unmatched && cli.getParent() == null
          && !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-")) {
        return refuse(cli, unmatched.getUnmatched().get(0));
      }
      return next.handleParseException(error, args);
    };
  }

  /** The one line for a first word that names no command, with the closest commands if any is close. */
  static String line(String word, CommandLine top) {
    return "signalbox: Unknown " + (word.startsWith("-") ? "option" : "command") + " '" + word
        + "'; 'signalbox --help' lists the commands" + ClosestNames.hint(word, top.getSubcommands().keySet());
  }

  private static int refuse(CommandLine top, String word) {
    PrintWriter err = top.getErr();
    err.println(line(word, top));
    err.flush();
    return 2;
  }
}
