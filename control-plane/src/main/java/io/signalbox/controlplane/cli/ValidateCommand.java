package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.config.SignalboxConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code signalbox validate --config FILE}: checks a config and its endpoint files offline, with the
 * server's own parsing, rules, translation and Envoy checks (DESIGN "Offline validation"): exit 0
 * when the server would publish it, 2 with every problem on its own line on stderr.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a config file and its endpoint files without a server or database: exit 0 valid, "
        + "2 invalid (every problem on its own line on stderr).")
public final class ValidateCommand implements Callable<Integer> {

  static final int INVALID = 2;

  @Spec CommandSpec spec;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The YAML config file.")
  Path config;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path file = config.toAbsolutePath().normalize();
    ConfigCheck.Result result = ConfigCheck.of(file);
    result.errors().forEach(v -> err.println(oneLine(v.toString())));
    err.flush();
    if (result.valid()) {
      out.println(file + " is valid: " + counts(result.config(), result.endpoints()));
    }
    result.warnings().forEach(w -> out.println(oneLine(w.toString())));
    out.flush();
    return result.valid() ? 0 : INVALID;
  }

  /**
   * A problem as one line, whatever the offending value holds: a line break in a quoted value
   * ({@code was 'bad\nhost'}) must not split one problem into two lines for a script counting them.
   */
  static String oneLine(String problem) {
    return problem.replace("\r", "\\r").replace("\n", "\\n");
  }

  /** {@code 1 listener, 1 route config, 2 clusters, 3 endpoints in 1 file}. */
  private static String counts(SignalboxConfig c, int endpoints) {
    int files = c.sources().files().size();
    return plural(c.listeners().size(), "listener") + ", " + plural(c.routeConfigs().size(), "route config") + ", "
        + plural(c.clusters().size(), "declared cluster") + ", " + plural(endpoints, "endpoint") + " in "
        + plural(files, "endpoint file");
  }

  private static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
