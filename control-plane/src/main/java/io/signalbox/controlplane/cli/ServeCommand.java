package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.AdminTlsSettings;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SecurityChecks;
import io.signalbox.controlplane.config.XdsTlsSettings;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.Pem;
import io.signalbox.controlplane.tls.TlsMaterial;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.file.EndpointFile;
import io.signalbox.source.yaml.Parsed;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code signalbox serve --config FILE}: runs the control plane until it is stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the control plane.")
public final class ServeCommand implements Callable<Integer> {

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
    List<Violation> startupProblems = validateAtStartup(cfg);
    if (!startupProblems.isEmpty()) {
      return invalid(err, file, startupProblems);
    }
    SignalboxServer.StoreTarget target = new SignalboxServer.StoreTarget(
        first(databaseUrl, System.getenv("SIGNALBOX_DATABASE_URL"), cfg.store().url()),
        cfg.store().dataDir(),
        first(databaseUser, System.getenv("SIGNALBOX_DATABASE_USER"), cfg.store().user()),
        first(databasePassword, System.getenv("SIGNALBOX_DATABASE_PASSWORD"), cfg.store().password()));
    SignalboxServer server = SignalboxServer.start(file, cfg, target, Clock.systemUTC());
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
   * Startup refuses what a reload would reject: the endpoint files as they are now, merged into
   * the config, must validate.
   */
  static List<Violation> validateAtStartup(SignalboxConfig cfg) {
    List<Violation> problems = new ArrayList<>(SecurityChecks.of(cfg));
    if (problems.isEmpty()) {
      problems.addAll(tlsFiles(cfg));
    }
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (Path file : cfg.sources().files()) {
      try {
        Parsed<Map<String, List<EndpointSpec>>> parsed = EndpointFile.parse(Files.readString(file), file.toString());
        problems.addAll(parsed.violations());
        if (parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) {
          ok.value().forEach((cluster, list) -> endpoints.computeIfAbsent(cluster, c -> new ArrayList<>()).addAll(list));
        }
      } catch (NoSuchFileException e) {
        problems.add(Violation.error("source.missing", file.toString(), "", "endpoint file does not exist"));
      } catch (IOException e) {
        problems.add(Violation.error("source.unreadable", file.toString(), "", "cannot read: " + e.getMessage()));
      }
    }
    if (!problems.isEmpty()) {
      return problems;
    }
    DesiredState desired = cfg.desiredState(endpoints);
    return new DesiredStateValidator().validate(desired).errors();
  }

  /** The TLS files as they are now: present, PEM, a key that belongs to its certificate. */
  private static List<Violation> tlsFiles(SignalboxConfig cfg) {
    List<CertificateFiles.Paths> sets = new ArrayList<>();
    XdsTlsSettings xds = cfg.xds().tls();
    if (xds != null) {
      sets.add(new CertificateFiles.Paths("xds.tls", xds.certFile(), xds.keyFile(), xds.clientCaFile()));
    }
    AdminTlsSettings admin = cfg.admin().tls();
    if (admin != null) {
      sets.add(new CertificateFiles.Paths("admin.tls", admin.certFile(), admin.keyFile(), null));
    }
    List<Violation> problems = new ArrayList<>();
    for (CertificateFiles.Paths set : sets) {
      if (CertificateFiles.read(set) instanceof Pem.Read.Invalid<TlsMaterial> invalid) {
        problems.add(Violation.error(SecurityChecks.RULE, cfg.configSource(), "", invalid.message()));
      }
    }
    return problems;
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
