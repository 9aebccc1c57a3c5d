package io.signalbox.controlplane.config;

import io.signalbox.model.CircuitBreakersSpec;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.HealthCheckSpec;
import io.signalbox.model.LbPolicy;
import io.signalbox.model.LeastRequestSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.LocalityLb;
import io.signalbox.model.MaglevSpec;
import io.signalbox.model.OutlierDetectionSpec;
import io.signalbox.model.RetryBudgetSpec;
import io.signalbox.model.RingHashSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.WeightedRoundRobinSpec;
import io.signalbox.model.ZoneAwareSpec;
import io.signalbox.source.yaml.Parsed;
import io.signalbox.source.yaml.StrictYaml;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Reads the config file strictly (every unknown key, wrong type, bad enum or duration reported at
 * once, with line and field path). Structure only: ranges and references are the validator's.
 */
public final class ConfigLoader {

  /** The file's top level as written; {@link SignalboxConfig} adds where it came from. */
  record Document(
      XdsSettings xds,
      AdminSettings admin,
      StoreSettings store,
      SourcesSettings sources,
      ReconcileSettings reconcile,
      RolloutSettings rollout,
      ClusterDefaults clusterDefaults,
      List<ListenerSpec> listeners,
      List<RouteConfigSpec> routeConfigs,
      List<ClusterSpec> clusters,
      HaSettings ha) {}

  /** {@link ClusterSpec} without {@code name}, so that naming the defaults is an unknown-key error. */
  record ClusterDefaults(
      LbPolicy lbPolicy,
      Duration connectTimeout,
      Duration slowStart,
      Integer maxEjectionPercent,
      OutlierDetectionSpec outlierDetection,
      CircuitBreakersSpec circuitBreakers,
      HealthCheckSpec healthCheck,
      RingHashSpec ringHash,
      LeastRequestSpec leastRequest,
      Duration drainTimeout,
      Integer minEligible,
      Integer massRemovalPercent,
      RetryBudgetSpec retryBudget,
      Integer panicThreshold,
      LocalityLb localityLb,
      ZoneAwareSpec zoneAware,
      Integer overprovisioningFactor,
      MaglevSpec maglev,
      WeightedRoundRobinSpec weightedRoundRobin) {

    ClusterSpec toSpec() {
      return new ClusterSpec(
          null, lbPolicy, connectTimeout, slowStart, maxEjectionPercent, outlierDetection, circuitBreakers,
          healthCheck, ringHash, leastRequest, drainTimeout, minEligible, massRemovalPercent,
          retryBudget, panicThreshold, localityLb, zoneAware, overprovisioningFactor, maglev, weightedRoundRobin);
    }
  }

  private ConfigLoader() {}

  /** Reads {@code file}; relative paths inside it resolve against its directory. */
  public static Parsed<SignalboxConfig> parse(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    try {
      return parse(Files.readAllBytes(absolute), absolute);
    } catch (IOException e) {
      return Parsed.invalid(
          List.of(Violation.error(StrictYaml.RULE, absolute.toString(), "", "cannot read the config file: " + e)));
    }
  }

  /** Reads content already loaded from {@code file} (e.g. delivered by a {@code WatchedFile}). */
  public static Parsed<SignalboxConfig> parse(byte[] content, Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    return parse(new String(content, StandardCharsets.UTF_8), absolute.toString(), absolute.getParent());
  }

  /**
   * Reads config text.
   *
   * @param sourceName named in violations and kept as {@link SignalboxConfig#configSource()}
   * @param baseDir what relative paths ({@code sources.files}, {@code store.dataDir}) resolve against
   */
  public static Parsed<SignalboxConfig> parse(String text, String sourceName, Path baseDir) {
    Path base = baseDir.toAbsolutePath().normalize();
    return StrictYaml.parse(text, sourceName, Document.class).map(doc -> toConfig(doc, sourceName, base));
  }

  private static SignalboxConfig toConfig(Document doc, String sourceName, Path baseDir) {
    StoreSettings store = doc.store() == null ? StoreSettings.defaults() : doc.store();
    SourcesSettings sources = doc.sources() == null ? SourcesSettings.defaults() : doc.sources();
    return new SignalboxConfig(
        sourceName,
        doc.xds(),
        doc.admin(),
        store.resolvedAgainst(baseDir),
        sources.resolvedAgainst(baseDir),
        doc.reconcile(),
        doc.rollout(),
        doc.clusterDefaults() == null ? null : doc.clusterDefaults().toSpec(),
        doc.listeners(),
        doc.routeConfigs(),
        doc.clusters(),
        doc.ha());
  }
}
