package io.signalbox.controlplane.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.yaml.Parsed;
import io.signalbox.validation.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Signalbox config file an overlay mounts, written to {@code file} and read by
 * {@link ConfigLoader}; any problem fails the read.
 */
record DeployedConfig(Path file, String text, SignalboxConfig config) {

  private static final YAMLMapper YAML = new YAMLMapper();

  static DeployedConfig of(RenderedOverlay.ConfigFile mounted, Path dir) {
    Path file = write(dir.resolve(mounted.key()), mounted.text());
    Parsed<SignalboxConfig> parsed = ConfigLoader.parse(file);
    if (parsed instanceof Parsed.Ok<SignalboxConfig> ok) {
      return new DeployedConfig(file, mounted.text(), ok.value());
    }
    throw new AssertionError("ConfigMap " + mounted.configMap() + " does not load:\n"
        + String.join("\n", parsed.violations().stream().map(Violation::toString).toList()));
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
