package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.config.core.v3.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Canary waves: which clients get a new epoch first. A client belongs to the first wave whose
 * node clusters or metadata match its node; a client matching none is in the last wave, so an
 * unmatched client is never a canary by accident. With no waves configured there is one wave.
 */
public record Waves(List<Wave> waves) {

  /**
   * @param nodeClusters matches {@code node.cluster}; empty matches none by cluster
   * @param metadata every key must equal the node's metadata string field; empty matches none
   * @param bake how long this wave must hold an epoch, fully ACKed, before the next wave gets it
   */
  public record Wave(String name, Set<String> nodeClusters, Map<String, String> metadata, Duration bake) {
    public Wave {
      nodeClusters = Set.copyOf(nodeClusters);
      metadata = Map.copyOf(metadata);
    }

    boolean matches(Node node) {
      if (nodeClusters.contains(node.getCluster())) {
        return true;
      }
      if (metadata.isEmpty()) {
        return false;
      }
      var fields = node.getMetadata().getFieldsMap();
      return metadata.entrySet().stream().allMatch(e -> fields.containsKey(e.getKey())
          && fields.get(e.getKey()).getStringValue().equals(e.getValue()));
    }
  }

  public static final Waves NONE = new Waves(List.of());

  public Waves {
    waves = List.copyOf(waves);
  }

  /** How many waves clients fall into: the configured ones plus the catch-all last wave. */
  public int count() {
    return waves.size() + 1;
  }

  public int waveOf(Node node) {
    for (int i = 0; i < waves.size(); i++) {
      if (waves.get(i).matches(node)) {
        return i;
      }
    }
    return waves.size();
  }

  /** Bake time of wave {@code index}; the catch-all wave has none after it. */
  public Duration bake(int index) {
    return index < waves.size() ? waves.get(index).bake() : Duration.ZERO;
  }

  public String name(int index) {
    return index < waves.size() ? waves.get(index).name() : "rest";
  }
}
