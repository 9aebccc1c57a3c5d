package io.signalbox.controlplane.config;

import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.store.StoreSettings;
import java.util.List;
import java.util.Map;

/**
 * The config file, read by {@link ConfigLoader}: server settings plus the operator's declared
 * listeners, route configs and clusters. Every settings section is present (defaults applied) and
 * every path is absolute.
 *
 * @param configSource the file it was read from, named in violations
 * @param clusterDefaults what every cluster takes for components it does not set; its name is null
 */
public record SignalboxConfig(
    String configSource,
    XdsSettings xds,
    AdminSettings admin,
    StoreSettings store,
    SourcesSettings sources,
    ReconcileSettings reconcile,
    RolloutSettings rollout,
    ClusterSpec clusterDefaults,
    List<ListenerSpec> listeners,
    List<RouteConfigSpec> routeConfigs,
    List<ClusterSpec> clusters,
    HaSettings ha) {

  public SignalboxConfig {
    configSource = configSource == null ? "" : configSource;
    xds = xds == null ? XdsSettings.defaults() : xds;
    admin = admin == null ? AdminSettings.defaults() : admin;
    store = store == null ? StoreSettings.defaults() : store;
    sources = sources == null ? SourcesSettings.defaults() : sources;
    reconcile = reconcile == null ? ReconcileSettings.defaults() : reconcile;
    rollout = rollout == null ? RolloutSettings.defaults() : rollout;
    clusterDefaults = clusterDefaults == null ? ClusterSpec.named(null) : clusterDefaults;
    listeners = listeners == null ? List.of() : List.copyOf(listeners);
    routeConfigs = routeConfigs == null ? List.of() : List.copyOf(routeConfigs);
    clusters = clusters == null ? List.of() : List.copyOf(clusters);
    ha = ha == null ? HaSettings.defaults() : ha;
  }

  /** A config without an {@code ha} section. */
  public SignalboxConfig(String configSource, XdsSettings xds, AdminSettings admin, StoreSettings store,
      SourcesSettings sources, ReconcileSettings reconcile, RolloutSettings rollout, ClusterSpec clusterDefaults,
      List<ListenerSpec> listeners, List<RouteConfigSpec> routeConfigs, List<ClusterSpec> clusters) {
    this(configSource, xds, admin, store, sources, reconcile, rollout, clusterDefaults, listeners, routeConfigs,
        clusters, null);
  }

  /**
   * What Signalbox should serve given these declarations and the sources' merged endpoints:
   * declared clusters with {@code clusterDefaults} filled in, plus every cluster that only a source
   * knows, built from {@code clusterDefaults} alone (DESIGN §6 "Clusters").
   */
  public DesiredState desiredState(Map<String, List<EndpointSpec>> endpoints) {
    return desiredStates().apply(endpoints);
  }

  /**
   * {@link #desiredState} for a run of epochs under this config. It derives the declared clusters'
   * specs once and each discovered cluster's spec once, not once per epoch: at 10,000 clusters that
   * was 10,000 specs built and sorted per epoch, and the same spec instance epoch after epoch lets
   * per-cluster memos downstream recognise an unchanged cluster by identity. While the set of
   * clusters with endpoints stays the same (most epochs change endpoints, not clusters), the very
   * list of specs of the epoch before is returned, so the validator and the translator see an
   * unchanged cluster list by identity instead of comparing 10,000 specs. Thread-safe: the API
   * asks about single clusters while the writer builds epochs.
   */
  public java.util.function.Function<Map<String, List<EndpointSpec>>, DesiredState> desiredStates() {
    List<ClusterSpec> declaredSpecs = clusters.stream().map(c -> c.withDefaults(clusterDefaults)).toList();
    java.util.Set<String> declared = new java.util.HashSet<>();
    clusters.forEach(c -> declared.add(c.name()));
    Map<String, ClusterSpec> discovered = new java.util.concurrent.ConcurrentHashMap<>();
    java.util.concurrent.atomic.AtomicReference<EffectiveClusters> last = new java.util.concurrent.atomic.AtomicReference<>();
    return endpoints -> {
      Iterable<String> names = endpoints instanceof java.util.SortedMap<String, ?> sorted && sorted.comparator() == null
          ? endpoints.keySet() : new java.util.TreeSet<>(endpoints.keySet());
      EffectiveClusters previous = last.get();
      if (previous != null && previous.isFor(names, endpoints.size())) {
        return new DesiredState(configSource, listeners, routeConfigs, previous.specs(), endpoints);
      }
      if (discovered.size() > 2 * endpoints.size() + 1024) {
        // Clusters come and go; keep only the specs of clusters that still exist.
        discovered.keySet().retainAll(endpoints.keySet());
      }
      List<ClusterSpec> effective = new java.util.ArrayList<>(declaredSpecs.size() + endpoints.size());
      effective.addAll(declaredSpecs);
      String[] keys = new String[endpoints.size()];
      int i = 0;
      for (String name : names) {
        keys[i++] = name;
        if (!declared.contains(name)) {
          effective.add(discovered.computeIfAbsent(name, this::clusterFor));
        }
      }
      EffectiveClusters now = new EffectiveClusters(keys, List.copyOf(effective));
      last.set(now);
      return new DesiredState(configSource, listeners, routeConfigs, now.specs(), endpoints);
    };
  }

  /** The cluster specs derived for one set of cluster names (in name order), kept for the next epoch. */
  private record EffectiveClusters(String[] names, List<ClusterSpec> specs) {
    /** Whether {@code others} are these names in this order: a pass of identity checks, mostly. */
    boolean isFor(Iterable<String> others, int size) {
      if (size != names.length) {
        return false;
      }
      int i = 0;
      for (String name : others) {
        String mine = names[i++];
        if (mine != name && !mine.equals(name)) {
          return false;
        }
      }
      return true;
    }
  }

  /** The declared cluster of that name with defaults applied, or a discovered one built from the defaults. */
  public ClusterSpec clusterFor(String name) {
    return clusters.stream()
        .filter(c -> name.equals(c.name()))
        .findFirst()
        .orElseGet(() -> ClusterSpec.named(name))
        .withDefaults(clusterDefaults);
  }
}
