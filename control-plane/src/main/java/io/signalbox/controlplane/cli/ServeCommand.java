package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.JvmSettings;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SettingsChecks;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.store.StoreSettings;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code signalbox serve --config FILE}: runs the control plane until it is stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the control plane.")
public final class ServeCommand implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  /** Exit code for an invalid config at startup (DESIGN §6: usage error). */
  static final int INVALID_CONFIG = 2;

  @Spec CommandSpec spec;

  @Option(names = "--config", required = true, description = "The YAML config file.")
  Path config;

  @Option(names = "--database-url", description = "JDBC URL of an external PostgreSQL; overrides store.url. "
      + "Default: env SIGNALBOX_DATABASE_URL, then the config.")
  String databaseUrl;

  @Option(names = "--database-user", description = "Default: env SIGNALBOX_DATABASE_USER, then store.user.")
  String databaseUser;

  @Option(names = "--database-password", description = "Default: env SIGNALBOX_DATABASE_PASSWORD, then store.password.")
  String databasePassword;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Path file = config.toAbsolutePath().normalize();
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);
    if (parsed instanceof Parsed.Invalid<SignalboxConfig> invalid) {
      return invalid(err, file, invalid.violations());
    }
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) parsed).value();
    // What the server needs to start at all (ports, store, TLS files): wrong, and it cannot serve
    // anything, stored or not.
    List<Violation> settings = ConfigCheck.serverSettings(cfg);
    if (!settings.isEmpty()) {
      return invalid(err, file, settings);
    }
    // The inputs (endpoint files, the config's listeners, routes and clusters) as they are now:
    // wrong at a restart (a typo, an edit half-written when the process died), they must not keep
    // the stored epoch from being served (fail static). Only with nothing stored is it an exit.
    List<Violation> inputProblems = validateAtStartup(cfg);
    StoreSettings target = cfg.store().withConnection(
        first(databaseUrl, System.getenv("SIGNALBOX_DATABASE_URL"), cfg.store().url()),
        first(databaseUser, System.getenv("SIGNALBOX_DATABASE_USER"), cfg.store().user()),
        first(databasePassword, System.getenv("SIGNALBOX_DATABASE_PASSWORD"), cfg.store().password()));
    // The rule the config's store.url was held to at load: a URL from the flag or the environment
    // that names no store is an exit with its reason, not a stack trace from the store.
    java.util.Optional<String> badUrl = StoreSettings.urlProblem(target.url());
    if (badUrl.isPresent()) {
      String from = databaseUrl != null ? "--database-url" : "SIGNALBOX_DATABASE_URL";
      return invalid(err, file, List.of(Violation.error(SettingsChecks.RULE, file.toString(), from, badUrl.get())));
    }
    JvmSettings.advice(JvmSettings.notInEffect(), JvmSettings.collector()).ifPresent(log::info);
    JvmSettings.heapAdvice().ifPresent(log::warn);
    SignalboxServer server;
    try {
      server = SignalboxServer.start(file, cfg, target, Clock.systemUTC(), inputProblems);
    } catch (SignalboxServer.NothingStoredToServe e) {
      return invalid(err, file, inputProblems);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "shutdown"));
    installReloadOnSighup(server);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /**
   * What a reload would reject: the endpoint files as they are now, merged into the config, must
   * make a valid epoch ({@link ConfigCheck}, what {@code validate} runs too). With a stored epoch
   * the server starts anyway, serves it and reports these; with none it exits.
   */
  static List<Violation> validateAtStartup(SignalboxConfig cfg) {
    return ConfigCheck.of(cfg).errors();
  }

  private static int invalid(PrintWriter err, Path file, List<Violation> violations) {
    err.println("signalbox: " + file + " is invalid (" + violations.size() + " problem"
        + (violations.size() == 1 ? "" : "s") + "):");
    violations.forEach(v -> err.println(v.toString()));
    err.flush();
    return INVALID_CONFIG;
  }

  @SuppressWarnings("restriction")
  private static void installReloadOnSighup(SignalboxServer server) {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> server.reload());
    } catch (IllegalArgumentException e) {
      // No SIGHUP on this platform; POST /api/v1/reload still works.
    }
  }

  private static String first(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }
}
