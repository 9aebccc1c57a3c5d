package io.signalbox.controlplane;

import io.signalbox.controlplane.cli.ServeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the jar: {@code serve}, and the operator commands that talk to a running server. */
@Command(
    name = "signalbox",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "An xDS control plane: validated, epoch-numbered, persisted snapshots over ADS.",
    subcommands = {ServeCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    // DESIGN §6: 0 success, 1 failure, 2 usage error, 3 timed out waiting.
    cli.setExitCodeExceptionMapper(e -> 1);
    return cli;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"signalbox " + (v == null ? "dev" : v)};
    }
  }
}
