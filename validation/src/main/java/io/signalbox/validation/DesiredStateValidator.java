package io.signalbox.validation;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.SortedNames;
import io.signalbox.model.ZonePreference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Every rule over a {@link DesiredState}, all violations at once (issue 2 §2). Each rule family
 * lives in its own class; this one only decides what they share: which names exist.
 *
 * <p>A cluster exists when it is declared or when a source reports endpoints for it: sources
 * discover clusters (a Kubernetes Service port, a registry registration) that need no declaration
 * (DESIGN §6 "Clusters").
 *
 * <h2>Reuse</h2>
 *
 * At 10,000 clusters × 10 endpoints re-checking every address on every epoch costs more than the
 * rest of an epoch together, while an epoch typically changes one cluster. So the validator
 * remembers what it found last time, per input, and reuses it while that input is the same
 * instance or equal:
 *
 * <ul>
 *   <li>a cluster's endpoint findings depend only on its endpoint list, its {@code
 *       minEligible} and its {@code zonePreference};
 *   <li>the listener, route config and cluster findings depend only on the config lists and, of
 *       the endpoints, only on which clusters have endpoints and which have none (route → cluster
 *       references, "has no endpoints"); they are recomputed whenever any of that changes.
 * </ul>
 *
 * The result is always exactly that of a fresh validation, in the same order. The memory is a
 * cache of a pure function of its keys, so a state that is rejected leaves nothing wrong behind;
 * it is replaced whole, so concurrent callers each see a consistent one.
 */
public final class DesiredStateValidator implements Validator {

  private volatile Memo memo = Memo.NONE;

  @Override
  public ValidationResult validate(DesiredState state) {
    if (state == null) {
      Findings f = new Findings();
      f.error(Findings.REQUIRED, "", "", "desired state is required");
      return new ValidationResult(f.violations());
    }
    Memo last = memo;
    boolean sameClusters = same(last.clusters, state.clusters());
    Map<String, EndpointPolicy> policies = sameClusters ? last.policies : policiesByName(state.clusters());
    // The endpoint map is sorted (a DesiredState's always is), and so are the names remembered:
    // each cluster's findings are found by walking both in step, not by hashing 10,000 names into a
    // map and out of another on every epoch.
    int size = state.endpoints().size();
    String[] names = new String[size];
    ClusterFindings[] findings = new ClusterFindings[size];
    List<Violation> endpointViolations = new ArrayList<>();
    boolean sameShape = last.config != null;
    int i = 0;
    for (Map.Entry<String, List<EndpointSpec>> e : state.endpoints().entrySet()) {
      String name = e.getKey();
      List<EndpointSpec> endpoints = e.getValue();
      ClusterFindings before = last.findings(i, name);
      // With the same clusters the policy is what it was when these findings were made.
      EndpointPolicy policy = sameClusters && before != null ? before.policy
          : policies.getOrDefault(name, EndpointPolicy.DEFAULT);
      sameShape &= before != null && before.endpoints.isEmpty() == endpoints.isEmpty();
      ClusterFindings now = before != null && before.policy.equals(policy) && same(before.endpoints, endpoints)
          ? before : ClusterFindings.of(name, endpoints, policy);
      names[i] = name;
      findings[i] = now;
      i++;
      if (!now.violations.isEmpty()) {
        endpointViolations.addAll(now.violations);
      }
    }
    sameShape &= size == last.names.length;
    ConfigFindings config = sameShape && sameClusters && last.config.coversConfigOf(state) ? last.config
        : ConfigFindings.of(state);

    List<Violation> all = new ArrayList<>(config.violations.size() + endpointViolations.size());
    all.addAll(config.violations);
    all.addAll(endpointViolations);
    memo = new Memo(config, state.clusters(), policies, names, findings);
    return new ValidationResult(all);
  }

  private static Map<String, EndpointPolicy> policiesByName(List<ClusterSpec> clusters) {
    Map<String, EndpointPolicy> out = new HashMap<>();
    for (ClusterSpec cluster : clusters) {
      if (cluster != null && cluster.name() != null) {
        out.putIfAbsent(cluster.name(), new EndpointPolicy(EndpointRules.minEligible(cluster),
            cluster.effectiveZonePreference() == ZonePreference.SAME_ZONE));
      }
    }
    return out;
  }

  /** The only parts of a cluster's declaration its endpoint rules read. */
  private record EndpointPolicy(int minEligible, boolean zonePreference) {
    static final EndpointPolicy DEFAULT = new EndpointPolicy(ClusterSpec.DEFAULT_MIN_ELIGIBLE, false);
  }

  /** Identity first: the usual case is the very same instance, and equals would walk it. */
  private static boolean same(Object a, Object b) {
    return a == b || (a != null && a.equals(b));
  }

  /**
   * What one validation saw and found.
   *
   * @param names the clusters with endpoints, in name order
   * @param findings parallel to {@code names}
   */
  private record Memo(ConfigFindings config, List<ClusterSpec> clusters, Map<String, EndpointPolicy> policies,
      String[] names, ClusterFindings[] findings) {
    static final Memo NONE = new Memo(null, null, Map.of(), new String[0], new ClusterFindings[0]);

    /** The findings of {@code name}, the {@code index}-th cluster this time: usually the index-th last time too. */
    ClusterFindings findings(int index, String name) {
      int at = SortedNames.indexOf(names, index, name);
      return at >= 0 ? findings[at] : null;
    }
  }

  /** One cluster's endpoint findings and what they were computed from. */
  private record ClusterFindings(List<EndpointSpec> endpoints, EndpointPolicy policy, List<Violation> violations) {
    static ClusterFindings of(String name, List<EndpointSpec> endpoints, EndpointPolicy policy) {
      Findings f = new Findings();
      EndpointRules.checkCluster(name, endpoints, policy.minEligible(), f);
      if (policy.zonePreference()) {
        ZonePlan.check(name, endpoints, policy.minEligible(), f);
      }
      return new ClusterFindings(endpoints, policy, List.copyOf(f.violations()));
    }
  }

  /** The listener, route config and cluster findings and the config they were computed from. */
  private record ConfigFindings(String source, List<ListenerSpec> listeners, List<RouteConfigSpec> routeConfigs,
      List<Violation> violations) {

    static ConfigFindings of(DesiredState state) {
      Findings f = new Findings();
      Set<String> routeConfigNames = new HashSet<>();
      for (RouteConfigSpec config : state.routeConfigs()) {
        if (config != null && config.name() != null) {
          routeConfigNames.add(config.name());
        }
      }
      Set<String> knownClusters = new HashSet<>(state.endpoints().keySet());
      Map<String, ClusterSpec> declared = new HashMap<>();
      for (ClusterSpec cluster : state.clusters()) {
        if (cluster != null && cluster.name() != null) {
          knownClusters.add(cluster.name());
          declared.putIfAbsent(cluster.name(), cluster);
        }
      }
      ListenerRules.check(state, routeConfigNames, f);
      RouteRules.check(state, knownClusters, declared, f);
      ClusterRules.check(state, f);
      return new ConfigFindings(state.configSource(), state.listeners(), state.routeConfigs(),
          List.copyOf(f.violations()));
    }

    /**
     * Whether these findings were computed from {@code state}'s listeners and route configs (the
     * caller compares the clusters, and the endpoints' shape).
     */
    boolean coversConfigOf(DesiredState state) {
      return Objects.equals(source, state.configSource()) && same(listeners, state.listeners())
          && same(routeConfigs, state.routeConfigs());
    }
  }
}
