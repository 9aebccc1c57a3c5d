package io.signalbox.controlplane.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.source.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Signalbox config file an overlay mounts, written to {@code file} and read by
 * {@link ConfigLoader}.
 *
 * <p>The manifests are written to DESIGN's "Replicas" contract, whose config keys ({@link #PENDING})
 * the loader may not read yet. Until it does, they are taken out before reading, and
 * {@link #pendingKeys} names the ones that were; any other problem fails the read.
 *
 * @param pendingKeys the {@link #PENDING} keys the file sets and the loader does not know yet
 */
record DeployedConfig(Path file, String text, SignalboxConfig config, List<String> pendingKeys) {

  /** Config keys of DESIGN "Replicas" that the replicas' own change adds to the loader. */
  static final List<String> PENDING = List.of("xds.maxConnectionAge");

  private static final YAMLMapper YAML = new YAMLMapper();

  static DeployedConfig of(RenderedOverlay.ConfigFile mounted, Path dir) {
    Path file = write(dir.resolve(mounted.key()), mounted.text());
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);
    if (parsed instanceof Parsed.Ok<SignalboxConfig> ok) {
      return new DeployedConfig(file, mounted.text(), ok.value(), List.of());
    }
    List<Violation> problems = parsed.violations();
    List<String> pending = problems.stream().filter(DeployedConfig::isPendingKey).map(DeployedConfig::key).toList();
    if (pending.size() < problems.size()) {
      throw new AssertionError("ConfigMap " + mounted.configMap() + " does not load:\n"
          + String.join("\n", problems.stream().map(Violation::toString).toList()));
    }
    Path stripped = write(dir.resolve("without-pending-keys.yaml"), without(mounted.text(), pending));
    Parsed<SignalboxConfig> rest = ConfigLoader.parse(stripped);
    if (!(rest instanceof Parsed.Ok<SignalboxConfig> ok)) {
      throw new AssertionError("ConfigMap " + mounted.configMap() + " without " + pending + " does not load: "
          + rest.violations());
    }
    return new DeployedConfig(stripped, mounted.text(), ok.value(), pending);
  }

  private static boolean isPendingKey(Violation v) {
    return PENDING.contains(key(v)) && v.message().startsWith("unknown key '");
  }

  /** The field path of a parse violation, without its position ({@code line 3, column 3: xds.port}). */
  private static String key(Violation v) {
    return v.path().replaceFirst("^line \\d+, column \\d+: ", "");
  }

  /** The config's YAML tree. */
  JsonNode tree() {
    return tree(text);
  }

  static JsonNode tree(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code text} without the given dotted keys. */
  static String without(String text, List<String> keys) {
    ObjectNode root = (ObjectNode) tree(text);
    for (String key : keys) {
      int dot = key.lastIndexOf('.');
      JsonNode parent = dot < 0 ? root : root.at("/" + key.substring(0, dot).replace('.', '/'));
      if (parent instanceof ObjectNode object) {
        object.remove(key.substring(dot + 1));
      }
    }
    try {
      return YAML.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(Path file, String text) {
    try {
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
