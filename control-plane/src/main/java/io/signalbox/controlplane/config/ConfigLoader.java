package io.signalbox.controlplane.config;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.Inline;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.yaml.Parsed;
import io.signalbox.yaml.StrictYaml;
import io.signalbox.store.StoreSettings;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the config file strictly (every unknown key, wrong type, bad enum or duration reported at
 * once, with line and field path), then checks the settings' values ({@link SettingsChecks}). Every
 * path that reads the config (start, reload, the file watcher, {@code validate}) comes through
 * here, so they refuse the same files. The desired state's ranges and references are the
 * validator's.
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

  /**
   * {@link ClusterSpec} without {@code name}, so that naming the defaults is an unknown-key error.
   * It lists the spec's groups, not its settings: a setting added to a group is read here as in
   * {@code clusters} with no change to this file.
   */
  record ClusterDefaults(
      @Inline ClusterSpec.Balancing balancing,
      @Inline ClusterSpec.Connection connection,
      @Inline ClusterSpec.Ejection ejection,
      @Inline ClusterSpec.Guards guards,
      @Inline ClusterSpec.Locality locality,
      @Inline ClusterSpec.Telemetry telemetry,
      @Inline ClusterSpec.Admission admission) {

    ClusterSpec toSpec() {
      return new ClusterSpec(null, balancing, connection, ejection, guards, locality, telemetry, admission);
    }
  }

  /** The rule id of an empty config file. */
  public static final String EMPTY = "config.empty";

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
    if (isEmpty(text)) {
      // Not "no resources": a truncated file (an editor, kubectl cp, a ConfigMap sync half done)
      // would otherwise remove every listener, route and cluster the fleet uses.
      return Parsed.invalid(List.of(Violation.error(EMPTY, sourceName, "",
          "the config file is empty (only whitespace or comments); the last valid config stays in force")));
    }
    Parsed<SignalboxConfig> read = structure(text, sourceName, baseDir);
    if (read instanceof Parsed.Ok<SignalboxConfig> ok) {
      List<Violation> problems = SettingsChecks.of(ok.value());
      return problems.isEmpty() ? read : Parsed.invalid(problems);
    }
    return read;
  }

  /** The file's structure alone, its settings' values unchecked: for tests of those checks. */
  static Parsed<SignalboxConfig> structure(String text, String sourceName, Path baseDir) {
    Path base = baseDir.toAbsolutePath().normalize();
    return StrictYaml.parse(text, sourceName, Document.class).map(doc -> toConfig(doc, sourceName, base));
  }

  /** Nothing but whitespace, comments and document markers: no key at all. */
  static boolean isEmpty(String text) {
    for (String line : text.replace("\uFEFF", "").split("\\R")) {
      String content = line.strip();
      if (!content.isEmpty() && !content.startsWith("#") && !content.equals("---") && !content.equals("...")) {
        return false;
      }
    }
    return true;
  }

  private static SignalboxConfig toConfig(Document doc, String sourceName, Path baseDir) {
    StoreSettings store = doc.store() == null ? StoreSettings.defaults() : doc.store();
    SourcesSettings sources = doc.sources() == null ? SourcesSettings.defaults() : doc.sources();
    return new SignalboxConfig(
        sourceName,
        doc.xds() == null ? null : doc.xds().resolvedAgainst(baseDir),
        doc.admin() == null ? null : doc.admin().resolvedAgainst(baseDir),
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
