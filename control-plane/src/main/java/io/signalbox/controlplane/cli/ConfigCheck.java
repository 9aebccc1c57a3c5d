package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.config.AdminTlsSettings;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SecurityChecks;
import io.signalbox.controlplane.config.SettingsChecks;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.config.XdsTlsSettings;
import io.signalbox.controlplane.reconcile.DesiredStateTemplate;
import io.signalbox.controlplane.reconcile.Pipeline;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.Pem;
import io.signalbox.controlplane.tls.TlsMaterial;
import io.signalbox.model.EndpointSpec;
import io.signalbox.source.SourceHealth;
import io.signalbox.source.SourceState;
import io.signalbox.source.file.EndpointFile;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.SourceEndpointRules;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.time.Clock;

/**
 * A config file and its endpoint files checked the way the server builds an epoch from them, with
 * the server's own code at each step and nothing else: {@link ConfigLoader} (structure), {@link
 * SecurityChecks} and {@link CertificateFiles} (the xDS and admin TLS settings, limits and files),
 * each endpoint file read as the file source reads it ({@link EndpointFile}, {@link
 * SourceEndpointRules}: one source per file), then {@link Pipeline#check}, the writer's own build:
 * the sources merged by the one rule for duplicates and precedence, every rule, the translation and
 * Envoy's own rules. No server, store or data directory is touched: {@code serve} refuses to start
 * on what this finds only when the settings are wrong or nothing is stored to serve (fail static),
 * and {@code validate} reports it (DESIGN "Offline validation").
 *
 * <p>Endpoints of the Kubernetes and registry sources need a cluster or a store; they are not read
 * here, but a caller that has their states passes them to {@link #of(SignalboxConfig, List)}.
 */
public final class ConfigCheck {

  /**
   * @param config the parsed config, or null when the file itself does not parse
   * @param errors every problem, in the order the server meets them
   * @param warnings what the validator records but does not refuse
   * @param endpoints how many endpoints the files hold
   * @param candidate what clients would be sent, when valid; null otherwise
   * @param sources every source the verdict was given: the endpoint files as read, then the others
   */
  public record Result(SignalboxConfig config, List<Violation> errors, List<Violation> warnings, int endpoints,
      SnapshotCandidate candidate, List<SourceState> sources) {
    public Result {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
      sources = List.copyOf(sources);
    }

    public boolean valid() {
      return errors.isEmpty();
    }
  }

  private ConfigCheck() {}

  /** Reads and checks {@code file}; relative paths inside it resolve against its directory. */
  public static Result of(Path file) {
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);
    if (parsed instanceof Parsed.Ok<SignalboxConfig> ok) {
      return of(ok.value());
    }
    return new Result(null, parsed.violations(), List.of(), 0, null, List.of());
  }

  /** Checks a parsed config with the endpoint files it names, as they are now. */
  public static Result of(SignalboxConfig config) {
    return of(config, List.of());
  }

  /**
   * Checks a parsed config with the endpoint files it names, as they are now, and {@code others}:
   * the states of its other sources (registry leases, EndpointSlices), as those sources publish them.
   */
  public static Result of(SignalboxConfig config, List<SourceState> others) {
    return of(config, others, file -> WatchedFile.readNow(file, config.sources().fileMaxBytes()));
  }

  /**
   * As {@link #of(SignalboxConfig, List)}, each endpoint file read by {@code files}: from disk, or
   * from the body of a plan request ({@code plan/Planner}), where the files are the caller's.
   */
  public static Result of(SignalboxConfig config, List<SourceState> others,
      Function<Path, WatchedFile.Event> files) {
    List<Violation> settings = serverSettings(config);
    List<SourceState> sources = new ArrayList<>(endpointFiles(config, files));
    int count = sources.stream().mapToInt(s -> s.endpoints().values().stream().mapToInt(List::size).sum()).sum();
    if (!settings.isEmpty()) {
      return new Result(config, settings, List.of(), count, null, sources);
    }
    sources.addAll(others);
    // The template the server builds from (SignalboxServer), not a one-off desired state.
    DesiredStateTemplate template = DesiredStateTemplate.of(config.desiredStates(), config::clusterFor);
    Pipeline.Verdict verdict = Pipeline.check(template, sources, config.sources().precedence(), Clock.systemUTC());
    return new Result(config, verdict.errors(), verdict.warnings(), count, verdict.candidate(), sources);
  }
  /**
   * The settings sections ({@link SettingsChecks}, which {@link ConfigLoader} runs too) and, when they are
   * consistent, the TLS files as they are now: present, PEM, a key that belongs to its certificate.
   * What the server needs to start at all: {@code serve} exits on these even with an epoch stored.
   */
  public static List<Violation> serverSettings(SignalboxConfig config) {
    List<Violation> problems = new ArrayList<>(SettingsChecks.of(config));
    if (!problems.isEmpty()) {
      return problems;
    }
    List<CertificateFiles.Paths> sets = new ArrayList<>();
    XdsTlsSettings xds = config.xds().tls();
    if (xds != null) {
      sets.add(new CertificateFiles.Paths("xds.tls", xds.certFile(), xds.keyFile(), xds.clientCaFile()));
    }
    AdminTlsSettings admin = config.admin().tls();
    if (admin != null) {
      sets.add(new CertificateFiles.Paths("admin.tls", admin.certFile(), admin.keyFile(), null));
    }
    for (CertificateFiles.Paths set : sets) {
      if (CertificateFiles.read(set) instanceof Pem.Read.Invalid<TlsMaterial> invalid) {
        problems.add(Violation.error(SecurityChecks.RULE, config.configSource(), "", invalid.message()));
      }
    }
    return problems;
  }

  /**
   * Every endpoint file as the file source publishes it: a source of its own (id {@code file:<path>}),
   * FRESH with its endpoints, or FAILED with every problem and nothing of it (offline there is no
   * last good content). A missing or unreadable file is a problem here (at startup and offline),
   * where the running server would keep the file's last good content.
   */
  private static List<SourceState> endpointFiles(SignalboxConfig config, Function<Path, WatchedFile.Event> files) {
    List<SourceState> states = new ArrayList<>();
    for (Path configured : config.sources().files()) {
      states.add(endpointFile(configured.toAbsolutePath().normalize(), files));
    }
    return states;
  }

  /** One endpoint file as the file source publishes it (see {@link #endpointFiles}). */
  public static SourceState endpointFile(Path file, Function<Path, WatchedFile.Event> files) {
    String id = "file:" + file;
    // Read by the file source's own rules: a FIFO, a device or a directory is refused, not read.
    WatchedFile.Event read = files.apply(file);
    List<Violation> problems = new ArrayList<>();
    Map<String, List<EndpointSpec>> endpoints = Map.of();
    if (read instanceof WatchedFile.Event.Content content) {
      Parsed<Map<String, List<EndpointSpec>>> parsed = EndpointFile.parse(content.text(), file.toString());
      if (parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) {
        problems.addAll(SourceEndpointRules.check(ok.value()));
        endpoints = problems.isEmpty() ? ok.value() : Map.of();
      } else {
        problems.addAll(parsed.violations());
      }
    } else if (read instanceof WatchedFile.Event.Unusable unusable) {
      problems.add(Violation.error("source.unusable", file.toString(), "", unusable.reason()));
    } else {
      problems.add(Violation.error("source.missing", file.toString(), "", "endpoint file does not exist"));
    }
    return new SourceState(id, 1, problems.isEmpty() ? SourceHealth.FRESH : SourceHealth.FAILED, endpoints,
        problems);
  }
}
