package io.signalbox.controlplane.cli;

import io.signalbox.controlplane.config.AdminTlsSettings;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SecurityChecks;
import io.signalbox.controlplane.config.SettingsChecks;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.config.XdsTlsSettings;
import io.signalbox.controlplane.reconcile.ResourceCheck;
import io.signalbox.controlplane.snapshot.SnapshotBuilder;
import io.signalbox.controlplane.snapshot.SnapshotCandidate;
import io.signalbox.controlplane.tls.CertificateFiles;
import io.signalbox.controlplane.tls.Pem;
import io.signalbox.controlplane.tls.TlsMaterial;
import io.signalbox.controlplane.translate.XdsTranslator;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.source.file.EndpointFile;
import io.signalbox.source.file.WatchedFile;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.DesiredStateValidator;
import io.signalbox.validation.EnvoyResourceValidator;
import io.signalbox.validation.ValidationResult;
import io.signalbox.validation.Violation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A config file and its endpoint files checked the way the server builds an epoch from them, with
 * the server's own code at each step and nothing else: {@link ConfigLoader} (structure), {@link
 * SecurityChecks} and {@link CertificateFiles} (the xDS and admin TLS settings, limits and files), {@link
 * EndpointFile} (each endpoint file), {@link DesiredStateValidator} (every rule), {@link
 * XdsTranslator} and {@link EnvoyResourceValidator} (Envoy's own rules on what clients would be
 * sent). No server, store or data directory is touched: {@code serve} refuses to start on what this
 * finds only when the settings are wrong or nothing is stored to serve (fail static), and {@code
 * validate} reports it (DESIGN "Offline validation").
 *
 * <p>Endpoints of the Kubernetes and registry sources need a cluster or a store; they are not read.
 */
public final class ConfigCheck {

  /**
   * @param config the parsed config, or null when the file itself does not parse
   * @param errors every problem, in the order the server meets them
   * @param warnings what the validator records but does not refuse
   * @param endpoints how many endpoints the files hold
   */
  public record Result(SignalboxConfig config, List<Violation> errors, List<Violation> warnings, int endpoints) {
    public Result {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
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
    return new Result(null, parsed.violations(), List.of(), 0);
  }

  /** Checks a parsed config with the endpoint files it names, as they are now. */
  public static Result of(SignalboxConfig config) {
    List<Violation> errors = new ArrayList<>(serverSettings(config));
    Map<String, List<EndpointSpec>> endpoints = endpointFiles(config, errors);
    int count = endpoints.values().stream().mapToInt(List::size).sum();
    if (!errors.isEmpty()) {
      return new Result(config, errors, List.of(), count);
    }
    DesiredState desired = config.desiredState(endpoints);
    ValidationResult verdict = new DesiredStateValidator().validate(desired);
    if (!verdict.isValid()) {
      return new Result(config, verdict.errors(), verdict.warnings(), count);
    }
    // What the reconciler checks next: the translated resources, against Envoy's own rules.
    SnapshotCandidate candidate = new SnapshotBuilder().candidate(new XdsTranslator().translate(desired).resources(),
        desired.endpoints(), null, Provenance.getDefaultInstance());
    ResourceCheck envoyRules = new EnvoyResourceValidator()::validate;
    return new Result(config, envoyRules.checkChanged(candidate), verdict.warnings(), count);
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
   * Every endpoint file, merged by cluster. A missing or unreadable file is a problem here (at
   * startup and offline), where the running server would keep the file's last good content.
   */
  private static Map<String, List<EndpointSpec>> endpointFiles(SignalboxConfig config, List<Violation> problems) {
    Map<String, List<EndpointSpec>> endpoints = new TreeMap<>();
    for (Path file : config.sources().files()) {
      // Read by the file source's own rules: a FIFO, a device or a directory is refused, not read.
      WatchedFile.Event read = WatchedFile.readNow(file, config.sources().fileMaxBytes());
      if (read instanceof WatchedFile.Event.Content content) {
        Parsed<Map<String, List<EndpointSpec>>> parsed = EndpointFile.parse(content.text(), file.toString());
        problems.addAll(parsed.violations());
        if (parsed instanceof Parsed.Ok<Map<String, List<EndpointSpec>>> ok) {
          ok.value().forEach((cluster, list) -> endpoints.computeIfAbsent(cluster, c -> new ArrayList<>()).addAll(list));
        }
      } else if (read instanceof WatchedFile.Event.Unusable unusable) {
        problems.add(Violation.error("source.unusable", file.toString(), "", unusable.reason()));
      } else {
        problems.add(Violation.error("source.missing", file.toString(), "", "endpoint file does not exist"));
      }
    }
    return endpoints;
  }
}
