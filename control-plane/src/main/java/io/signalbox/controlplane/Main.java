package io.signalbox.controlplane;

import io.signalbox.controlplane.cli.ClientsCommand;
import io.signalbox.controlplane.cli.CliFailure;
import io.signalbox.controlplane.cli.CompletionCommand;
import io.signalbox.controlplane.cli.ConfigCommand;
import io.signalbox.controlplane.cli.ConfirmCommand;
import io.signalbox.controlplane.cli.DemoCommand;
import io.signalbox.controlplane.cli.DiffCommand;
import io.signalbox.controlplane.cli.DrainCommand;
import io.signalbox.controlplane.cli.EjectCommand;
import io.signalbox.controlplane.cli.EndpointsCommand;
import io.signalbox.controlplane.cli.PlanCommand;
import io.signalbox.controlplane.cli.EpochsCommand;
import io.signalbox.controlplane.cli.FreezeCommand;
import io.signalbox.controlplane.cli.FreezeEjectionsCommand;
import io.signalbox.controlplane.cli.LoadCommand;
import io.signalbox.controlplane.cli.RollbackCommand;
import io.signalbox.controlplane.cli.ServeCommand;
import io.signalbox.controlplane.cli.ShedCommand;
import io.signalbox.controlplane.cli.StatusCommand;
import io.signalbox.controlplane.cli.UndrainCommand;
import io.signalbox.controlplane.cli.UnknownCommands;
import io.signalbox.controlplane.cli.TimelineCommand;
import io.signalbox.controlplane.cli.ValidateCommand;
import io.signalbox.controlplane.cli.WaitCommand;
import io.signalbox.controlplane.cli.WhyCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the jar: {@code serve}, and the operator commands that talk to a running server. */
@Command(
    name = "signalbox",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "An xDS control plane: validated, epoch-numbered, persisted snapshots over ADS.",
    subcommands = {ServeCommand.class, DemoCommand.class, StatusCommand.class, EpochsCommand.class, ClientsCommand.class,
        EndpointsCommand.class, LoadCommand.class, DrainCommand.class, UndrainCommand.class, EjectCommand.class,
        RollbackCommand.class, FreezeCommand.class, FreezeCommand.Unfreeze.class, ShedCommand.class,
        ShedCommand.Unshed.class, FreezeEjectionsCommand.class, FreezeEjectionsCommand.Unfreeze.class,
        ConfirmCommand.class, WhyCommand.class, DiffCommand.class, TimelineCommand.class,
        ConfigCommand.class,
        PlanCommand.class,
        io.signalbox.controlplane.cli.HistoryCommand.class, io.signalbox.controlplane.cli.FleetCommand.class,
        WaitCommand.class, ValidateCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line {@link #main} runs; tests execute it with their own out and err writers. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    // DESIGN §6: 0 success, 1 failure, 2 usage error (picocli's own), 3 timed out waiting.
    // The mapper also decides the exit code of picocli's own usage errors: keep those at 2.
    cli.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? 2
        : e instanceof CliFailure f ? f.exitCode() : 1);
    cli.setExecutionStrategy(UnknownCommands.refusing(new CommandLine.RunLast()));
    cli.setParameterExceptionHandler(UnknownCommands.refusing(cli.getParameterExceptionHandler()));
    cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      if (e instanceof CliFailure failure) {
        // One line, no stack trace: the operator's mistake or the server's answer, not a bug.
        commandLine.getErr().println("signalbox: " + failure.getMessage());
        commandLine.getErr().flush();
        return failure.exitCode();
      }
      throw e;
    });
    return cli;
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }

  /**
   * {@code signalbox 0.1.0-SNAPSHOT (commit 4ad788b1c2d3)}: the build writes both into
   * {@code build.properties} (control-plane/pom.xml, "build-info"); a class path without it (an
   * IDE run) says so rather than guess.
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws java.io.IOException {
      java.util.Properties build = new java.util.Properties();
      try (java.io.InputStream in = Main.class.getResourceAsStream("build.properties")) {
        if (in != null) {
          build.load(in);
        }
      }
      return new String[] {line(build.getProperty("version"), build.getProperty("commit"))};
    }

    static String line(String version, String commit) {
      return "signalbox " + (version == null ? "(version unknown: not built by Maven)" : version)
          + " (commit " + (commit == null ? "unknown" : commit) + ")";
    }
  }
}
