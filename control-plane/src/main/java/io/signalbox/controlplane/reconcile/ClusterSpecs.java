package io.signalbox.controlplane.reconcile;

import io.signalbox.model.ClusterSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The clusters of one configuration, as declared or discovered with {@code clusterDefaults}, each
 * worked out once: asking the template may cost a pass over every declared cluster, and the guards
 * and drains ask per cluster on every epoch. A new configuration is a new instance. Thread-safe.
 */
final class ClusterSpecs {

  /** Beyond this many names (an API caller asking about made-up clusters), look up without keeping. */
  private static final int MAX_CACHED = 1_000_000;

  private final DesiredStateTemplate template;
  private final Map<String, ClusterSpec> byName = new ConcurrentHashMap<>();

  /** @param template the configuration, or null before there is one (every cluster is the default) */
  ClusterSpecs(DesiredStateTemplate template) {
    this.template = template;
  }

  DesiredStateTemplate template() {
    return template;
  }

  ClusterSpec get(String name) {
    if (template == null) {
      return ClusterSpec.named(name);
    }
    ClusterSpec spec = byName.get(name);
    if (spec == null) {
      spec = template.cluster(name);
      if (byName.size() < MAX_CACHED) {
        byName.put(name, spec);
      }
    }
    return spec;
  }
}
