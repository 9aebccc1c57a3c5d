package io.signalbox.controlplane.reconcile;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The operator's configuration, waiting for the merged endpoints of every source. */
@FunctionalInterface
public interface DesiredStateTemplate {
  DesiredState with(Map<String, List<EndpointSpec>> endpoints);

  /**
   * The cluster {@code name} as this configuration has it: declared, or discovered with
   * {@code clusterDefaults}. By default, from a desired state holding that cluster alone.
   */
  default ClusterSpec cluster(String name) {
    return with(Map.of(name, List.of())).clusters().stream()
        .filter(c -> name.equals(c.name())).findFirst().orElse(ClusterSpec.named(name));
  }

  /**
   * A template that answers {@link #cluster} from {@code clusters} rather than through {@code
   * states}: {@code states} may keep the cluster list it built last for the next epoch
   * ({@code SignalboxConfig.desiredStates}), and a one-cluster question between two epochs (the
   * guards, drains, the API) would replace it and make the next epoch rebuild the whole list.
   */
  static DesiredStateTemplate of(Function<Map<String, List<EndpointSpec>>, DesiredState> states,
      Function<String, ClusterSpec> clusters) {
    return new DesiredStateTemplate() {
      @Override
      public DesiredState with(Map<String, List<EndpointSpec>> endpoints) {
        return states.apply(endpoints);
      }

      @Override
      public ClusterSpec cluster(String name) {
        return clusters.apply(name);
      }
    };
  }
}
