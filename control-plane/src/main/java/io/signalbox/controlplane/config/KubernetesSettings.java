package io.signalbox.controlplane.config;

import java.util.List;

/** The EndpointSlice source: off unless enabled; {@code labelSelector} null selects every slice. */
public record KubernetesSettings(Boolean enabled, List<String> namespaces, String labelSelector) {
  public static final List<String> DEFAULT_NAMESPACES = List.of("default");

  public KubernetesSettings {
    enabled = enabled == null ? Boolean.FALSE : enabled;
    namespaces = namespaces == null ? DEFAULT_NAMESPACES : List.copyOf(namespaces);
  }

  public static KubernetesSettings defaults() {
    return new KubernetesSettings(null, null, null);
  }
}
