package io.signalbox.controlplane.config;

import io.signalbox.source.kubernetes.ClusterNameTemplate;
import io.signalbox.source.kubernetes.KubernetesSourceSettings;
import io.signalbox.source.kubernetes.KubernetesSourceSettings.Connection;
import java.nio.file.Path;
import java.util.List;

/**
 * The EndpointSlice source: off unless enabled; {@code labelSelector} null selects every Service.
 *
 * @param namespaces namespaces to watch, or {@code [ "*" ]} for all
 * @param labelSelector selects the Services whose ports become clusters
 * @param clusterName how a Service port is named as a cluster; {@code {namespace}/{service}:{port}}
 * @param kubeconfig a kubeconfig file (relative to the config file); unset: in-cluster or the usual discovery
 * @param context the kubeconfig context; unset: its current context
 * @param masterUrl a bare API server URL without credentials (e.g. {@code kubectl proxy}); wins over kubeconfig
 */
public record KubernetesSettings(Boolean enabled, List<String> namespaces, String labelSelector, String clusterName,
    Path kubeconfig, String context, String masterUrl) {
  public static final List<String> DEFAULT_NAMESPACES = List.of("default");

  public KubernetesSettings {
    enabled = enabled == null ? Boolean.FALSE : enabled;
    namespaces = namespaces == null ? DEFAULT_NAMESPACES : List.copyOf(namespaces);
    clusterName = clusterName == null ? ClusterNameTemplate.DEFAULT.template() : clusterName;
    // Built once here only to report a bad template or namespace list at load time, where it was written.
    new KubernetesSourceSettings(namespaces, labelSelector, new ClusterNameTemplate(clusterName), null, null);
  }

  public KubernetesSettings(Boolean enabled, List<String> namespaces, String labelSelector) {
    this(enabled, namespaces, labelSelector, null, null, null, null);
  }

  public static KubernetesSettings defaults() {
    return new KubernetesSettings(null, null, null);
  }

  KubernetesSettings resolvedAgainst(Path baseDir) {
    return kubeconfig == null ? this : new KubernetesSettings(enabled, namespaces, labelSelector, clusterName,
        baseDir.resolve(kubeconfig).normalize(), context, masterUrl);
  }

  /** What the source needs; its timing keeps the source's defaults. */
  public KubernetesSourceSettings toSourceSettings() {
    Connection connection = masterUrl != null ? new Connection.MasterUrl(masterUrl)
        : kubeconfig != null ? new Connection.Kubeconfig(kubeconfig, context)
        : new Connection.Auto();
    return new KubernetesSourceSettings(namespaces, labelSelector, new ClusterNameTemplate(clusterName), connection,
        null);
  }
}
