package io.signalbox.source.kubernetes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link KubernetesEndpointSource} watches and how it reaches the API server.
 *
 * @param namespaces namespaces to watch; {@code *} alone watches all of them
 * @param labelSelector selects the Services (e.g. {@code app=greeter,tier!=batch}); null selects all
 * @param clusterNames how a Service port becomes a cluster name
 * @param connection how to reach the API server
 * @param timing how quickly changes and outages are noticed
 */
public record KubernetesSourceSettings(
    List<String> namespaces, String labelSelector, ClusterNameTemplate clusterNames, Connection connection,
    Timing timing) {

  public static final String ALL_NAMESPACES = "*";

  public KubernetesSourceSettings {
    namespaces = List.copyOf(namespaces);
    if (namespaces.isEmpty()) {
      throw new IllegalArgumentException("namespaces: must name at least one namespace, or '*'");
    }
    if (namespaces.contains(ALL_NAMESPACES) && namespaces.size() > 1) {
      throw new IllegalArgumentException("namespaces: '*' already means every namespace, was " + namespaces);
    }
    labelSelector = labelSelector == null || labelSelector.isBlank() ? null : labelSelector;
    clusterNames = clusterNames == null ? ClusterNameTemplate.DEFAULT : clusterNames;
    connection = connection == null ? new Connection.Auto() : connection;
    timing = timing == null ? Timing.DEFAULT : timing;
  }

  /** How to reach the API server. */
  public sealed interface Connection {
    /**
     * fabric8's own discovery: the service account when running in a pod, else {@code KUBECONFIG}
     * or {@code ~/.kube/config}, and the usual {@code kubernetes.*} system properties.
     */
    record Auto() implements Connection {}

    /** An explicit kubeconfig file; {@code context} null uses its current context. */
    record Kubeconfig(Path file, String context) implements Connection {
      public Kubeconfig {
        Objects.requireNonNull(file, "file");
      }
    }

    /** A bare URL with no credentials (a local proxy such as {@code kubectl proxy}, or a test server). */
    record MasterUrl(String url) implements Connection {
      public MasterUrl {
        Objects.requireNonNull(url, "url");
      }
    }
  }

  /**
   * @param debounce events within this window are published as one state
   * @param probeInterval how often the API server is asked whether it is still there
   * @param reconnectInterval the first delay before the client re-lists or re-watches after a failure
   */
  public record Timing(Duration debounce, Duration probeInterval, Duration reconnectInterval) {
    public static final Timing DEFAULT = new Timing(Duration.ofMillis(50), Duration.ofSeconds(5), Duration.ofSeconds(1));

    public Timing {
      Objects.requireNonNull(debounce, "debounce");
      Objects.requireNonNull(probeInterval, "probeInterval");
      Objects.requireNonNull(reconnectInterval, "reconnectInterval");
      if (debounce.isNegative() || isNotPositive(probeInterval) || isNotPositive(reconnectInterval)) {
        throw new IllegalArgumentException(
            "bad timing: debounce " + debounce + ", probe " + probeInterval + ", reconnect " + reconnectInterval);
      }
    }

    private static boolean isNotPositive(Duration d) {
      return d.isNegative() || d.isZero();
    }
  }
}
