package io.signalbox.controlplane.plan;

import java.util.Map;

/**
 * What to plan, as the caller has it: a config file's text and the endpoint files it names, or
 * endpoint files alone (planned under the config the server has now).
 *
 * @param configFile the config's path on the caller's side: its relative {@code sources.files}
 *     resolve against its directory, and violations name it; null with {@code config}
 * @param config the config file's text, or null for endpoint files alone
 * @param endpointFiles each endpoint file's text by its absolute path on the caller's side
 */
public record PlanInputs(String configFile, String config, Map<String, String> endpointFiles) {
  public PlanInputs {
    endpointFiles = endpointFiles == null ? Map.of() : Map.copyOf(endpointFiles);
    if (config != null && configFile == null) {
      throw new IllegalArgumentException("a config's text needs its file's path");
    }
  }
}
