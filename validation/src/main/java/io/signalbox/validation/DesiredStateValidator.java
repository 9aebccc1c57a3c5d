package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.RouteConfigSpec;
import java.util.HashSet;
import java.util.Set;

/**
 * Every rule over a {@link DesiredState}, all violations at once (issue 2 §2). Each rule family
 * lives in its own class; this one only decides what they share: which names exist.
 *
 * <p>A cluster exists when it is declared or when a source reports endpoints for it: sources
 * discover clusters (a Kubernetes Service port, a registry registration) that need no declaration
 * (DESIGN §6 "Clusters").
 */
public final class DesiredStateValidator implements Validator {

  @Override
  public ValidationResult validate(DesiredState state) {
    Findings f = new Findings();
    if (state == null) {
      f.error(Findings.REQUIRED, "", "", "desired state is required");
      return new ValidationResult(f.violations());
    }
    Set<String> routeConfigNames = new HashSet<>();
    for (RouteConfigSpec config : state.routeConfigs()) {
      if (config != null && config.name() != null) {
        routeConfigNames.add(config.name());
      }
    }
    Set<String> knownClusters = new HashSet<>(state.endpoints().keySet());
    for (ClusterSpec cluster : state.clusters()) {
      if (cluster != null && cluster.name() != null) {
        knownClusters.add(cluster.name());
      }
    }
    ListenerRules.check(state, routeConfigNames, f);
    RouteRules.check(state, knownClusters, f);
    ClusterRules.check(state, f);
    EndpointRules.check(state, f);
    return new ValidationResult(f.violations());
  }
}
