package io.signalbox.controlplane.translate;

import com.google.protobuf.Message;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.TranslatedResources;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import io.signalbox.model.ZonePreference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Translates a validated {@link DesiredState} into Envoy v3 xDS resources: one {@code Listener} per
 * listener, one {@code RouteConfiguration} per route config, and one EDS {@code Cluster} and one
 * {@code ClusterLoadAssignment} per cluster, declared or only discovered by a source (those take
 * {@link ClusterSpec#named} defaults). Pure and thread-safe: no I/O, no clock, no mutable state.
 *
 * <h2>Endpoint states</h2>
 *
 * <ul>
 *   <li>{@code READY} → {@code HEALTHY}.
 *   <li>{@code DEGRADED} → {@code DEGRADED}: Envoy sends it work only when healthy capacity is
 *       short, which is exactly what the state means.
 *   <li>{@code DRAINING} → {@code DRAINING}: Envoy and grpc-xds give it no new requests while
 *       requests and streams already on it finish.
 *   <li>{@code WARMING} and {@code EJECTED} are <b>omitted</b> from the assignment, not sent as
 *       {@code UNHEALTHY}. Envoy computes its panic threshold over every host it knows: a cluster
 *       with many UNHEALTHY hosts (a rollout warming half the fleet) drops below the threshold and
 *       enters panic mode, where Envoy balances over <i>all</i> hosts, unhealthy ones included — new
 *       work would go to endpoints that must get none. Omitted hosts don't count towards it. A
 *       locality all of whose endpoints are omitted is omitted, and priorities are renumbered
 *       densely because grpc-xds rejects an assignment that skips one.
 * </ul>
 *
 * <p>Endpoint addresses go into {@code socket_address} as given, DNS names included. Envoy's EDS
 * does not resolve names, so fleets of Envoys should be given IP addresses; grpc-xds likewise.
 *
 * <h2>Reuse</h2>
 *
 * Each resource depends only on its own spec (a cluster on its {@link ClusterSpec}, an assignment
 * on its cluster's endpoint list and overprovisioning factor), so {@link #translate(DesiredState, Translation)} returns the
 * <i>same</i> {@link TranslatedResource} instance as {@code previous} did wherever that input is
 * equal (record equality). A one-endpoint change among 10,000 clusters then builds one
 * ClusterLoadAssignment, and later stages can skip re-hashing by identity. The memo lives in the
 * {@link Translation} value passed in and out, not in this class. Clusters are matched with the
 * previous translation by one merge over name-ordered sequences rather than a lookup each, and
 * an unchanged (same or equal) list of declared clusters lets every cluster resource be reused
 * without comparing specs one by one.
 *
 * <p>Output is deterministic: resources in {@link XdsType#ORDERED push order}, by name within a
 * type; endpoints by priority, zone, address and port. The input is expected to be validated;
 * odd-yet-valid input (duplicate names, missing optional parts) never makes it throw — for
 * duplicate names the first declaration wins.
 */
public final class XdsTranslator {

  /** Translates {@code state} from scratch. */
  public Translation translate(DesiredState state) {
    return translate(state, Translation.empty());
  }

  /** Translates {@code state}, reusing {@code previous}'s resources wherever their input is unchanged. */
  public Translation translate(DesiredState state, Translation previous) {
    // Equal declarations give every cluster the spec it had last time: no need to compare them one by one.
    boolean sameSpecs = previous.declared().isFrom(state.clusters());
    // Kept with this very list, so that the next epoch, usually handed the same list, sees it by identity.
    Translation.Declared declared = sameSpecs ? previous.declared().from(state.clusters())
        : Translation.Declared.of(state.clusters());
    Map<String, List<EndpointSpec>> endpoints = state.endpoints();
    String[] declaredNames = declared.names();
    int capacity = declaredNames.length + endpoints.size();
    String[] names = new String[capacity];
    Translation.Memo<?>[] clusters = new Translation.Memo<?>[capacity];
    Translation.Memo<?>[] assignments = new Translation.Memo<?>[capacity];
    boolean[] hasEndpoints = new boolean[capacity];
    String[] previousNames = previous.clusterNames();
    Translation.Memo<?>[] previousClusters = previous.clusterMemos();
    Translation.Memo<?>[] previousAssignments = previous.assignmentMemos();
    boolean[] previousHasEndpoints = previous.hasEndpoints();
    DeltaBuilder delta = new DeltaBuilder();

    // One merge of three name-ordered sequences (declared clusters, the endpoint map, the previous
    // translation) rather than a lookup per cluster in each: at 10,000 clusters those lookups were
    // most of the translation's cost.
    Iterator<Map.Entry<String, List<EndpointSpec>>> withEndpoints = endpoints.entrySet().iterator();
    Map.Entry<String, List<EndpointSpec>> next = withEndpoints.hasNext() ? withEndpoints.next() : null;
    int d = 0;
    int p = 0;
    int n = 0;
    while (d < declaredNames.length || next != null) {
      int order = d == declaredNames.length ? 1 : next == null ? -1 : compare(declaredNames[d], next.getKey());
      String name = order <= 0 ? declaredNames[d] : next.getKey();
      ClusterSpec spec = order <= 0 ? declared.specs()[d] : ClusterSpec.named(name); // discovered: the defaults
      List<EndpointSpec> clusterEndpoints = order >= 0 ? next.getValue() : List.of();
      if (order <= 0) {
        d++;
      }
      if (order >= 0) {
        next = withEndpoints.hasNext() ? withEndpoints.next() : null;
        if (next != null && next.getKey().compareTo(name) <= 0) {
          // Not sorted after all (a DesiredState always is): correct, just slower.
          return translate(new DesiredState(state.configSource(), state.listeners(), state.routeConfigs(),
              state.clusters(), new TreeMap<>(endpoints)), previous);
        }
      }
      while (p < previousNames.length && compare(previousNames[p], name) < 0) {
        delta.clusterGone(previousNames[p], previousHasEndpoints[p]);
        p++;
      }
      boolean known = p < previousNames.length && previousNames[p].equals(name);
      Translation.Memo<?> oldCluster = known ? previousClusters[p] : null;
      Translation.Memo<?> oldAssignment = known ? previousAssignments[p] : null;
      boolean hadEndpoints = known && previousHasEndpoints[p];
      if (known) {
        p++;
      }
      names[n] = name;
      hasEndpoints[n] = order >= 0;
      clusters[n] = sameSpecs && oldCluster != null ? oldCluster : reuseOrBuild(oldCluster, spec,
          s -> resource(XdsType.CLUSTER, name, ClusterTranslator.toCluster(s), Set.of(name)));
      assignments[n] = reuseOrBuild(oldAssignment,
          new AssignmentTranslator.Input(clusterEndpoints, spec.locality().overprovisioningFactor(),
              AssignmentTranslator.Localities.of(spec),
              spec.effectiveHashKeySource(), spec.effectiveZonePreference(),
              // Only a zone preference reads the minimum: another change of it keeps the assignment.
              spec.effectiveZonePreference() == ZonePreference.SAME_ZONE ? spec.effectiveMinEligible() : 0),
          e -> resource(XdsType.ENDPOINT, name, AssignmentTranslator.toAssignment(name, e), Set.of()));
      delta.cluster(name, clusters[n] != oldCluster ? clusters[n] : null,
          assignments[n] != oldAssignment ? assignments[n] : null, hadEndpoints, hasEndpoints[n]);
      n++;
    }
    for (; p < previousNames.length; p++) {
      delta.clusterGone(previousNames[p], previousHasEndpoints[p]);
    }

    Map<String, Translation.Memo<?>> listeners = new LinkedHashMap<>();
    for (ListenerSpec spec : firstByName(state.listeners(), ListenerSpec::name).values()) {
      listeners.put(
          spec.name(),
          reuseOrBuild(
              previous.listener(spec.name()),
              spec,
              s ->
                  resource(
                      XdsType.LISTENER,
                      s.name(),
                      ListenerTranslator.toListener(s),
                      s.routeConfig() == null ? Set.of() : Set.of(s.routeConfig()))));
    }

    Map<String, Translation.Memo<?>> routes = new LinkedHashMap<>();
    for (RouteConfigSpec spec : firstByName(state.routeConfigs(), RouteConfigSpec::name).values()) {
      routes.put(
          spec.name(),
          reuseOrBuild(
              previous.route(spec.name()),
              spec,
              s ->
                  resource(
                      XdsType.ROUTE,
                      s.name(),
                      RouteTranslator.toRouteConfiguration(s),
                      RouteTranslator.referencedClusters(s))));
    }
    delta.small(XdsType.LISTENER, listeners, previous.listeners());
    delta.small(XdsType.ROUTE, routes, previous.routes());
    return new Translation(declared, endpoints, Arrays.copyOf(names, n), Arrays.copyOf(clusters, n),
        Arrays.copyOf(assignments, n), Arrays.copyOf(hasEndpoints, n), listeners, routes,
        delta.build(previous, endpoints));
  }

  /**
   * What changed since the previous translation, collected during the merge: resources rebuilt
   * (any memo not reused), names gone, and clusters whose endpoint list is new, different or gone.
   */
  private static final class DeltaBuilder {
    private final EnumMap<XdsType, List<TranslatedResource>> changed = new EnumMap<>(XdsType.class);
    private final EnumMap<XdsType, List<String>> removed = new EnumMap<>(XdsType.class);
    private final List<String> endpointsChanged = new ArrayList<>();
    private final List<String> endpointsRemoved = new ArrayList<>();

    DeltaBuilder() {
      for (XdsType t : XdsType.ORDERED) {
        changed.put(t, new ArrayList<>());
        removed.put(t, new ArrayList<>());
      }
    }

    /** A cluster of this translation; {@code cluster}/{@code assignment} are null when reused. */
    void cluster(String name, Translation.Memo<?> cluster, Translation.Memo<?> assignment, boolean hadEndpoints,
        boolean hasEndpoints) {
      if (cluster != null) {
        changed.get(XdsType.CLUSTER).add(cluster.output());
      }
      if (assignment != null) {
        changed.get(XdsType.ENDPOINT).add(assignment.output());
      }
      // An equal list reuses the assignment, and equal lists are all the snapshot needs to know;
      // but the list can also be there now and not before (or the reverse) with the same empty
      // assignment.
      if (hasEndpoints && (assignment != null || !hadEndpoints)) {
        endpointsChanged.add(name);
      } else if (!hasEndpoints && hadEndpoints) {
        endpointsRemoved.add(name);
      }
    }

    void clusterGone(String name, boolean hadEndpoints) {
      removed.get(XdsType.CLUSTER).add(name);
      removed.get(XdsType.ENDPOINT).add(name);
      if (hadEndpoints) {
        endpointsRemoved.add(name);
      }
    }

    /** Listeners or route configs: few, so compared by map. */
    void small(XdsType type, Map<String, Translation.Memo<?>> now, Map<String, Translation.Memo<?>> before) {
      now.forEach((name, memo) -> {
        if (before.get(name) != memo) {
          changed.get(type).add(memo.output());
        }
      });
      before.keySet().stream().filter(name -> !now.containsKey(name)).sorted().forEach(removed.get(type)::add);
    }

    TranslatedResources.Delta build(Translation previous, Map<String, List<EndpointSpec>> endpoints) {
      return new TranslatedResources.Delta(previous.id(), endpoints, previous.endpoints(), Map.copyOf(changed),
          Map.copyOf(removed), endpointsChanged, endpointsRemoved);
    }
  }

  /** From one epoch to the next, names are far more often equal than not, and equals is the cheaper test. */
  private static int compare(String a, String b) {
    return a.equals(b) ? 0 : a.compareTo(b);
  }

  private static <I> Translation.Memo<I> reuseOrBuild(
      Translation.Memo<?> previous, I input, Function<I, TranslatedResource> build) {
    if (previous != null && previous.input().equals(input)) {
      @SuppressWarnings("unchecked") // equal inputs are of the same type
      Translation.Memo<I> same = (Translation.Memo<I>) previous;
      return same;
    }
    return new Translation.Memo<>(input, build.apply(input));
  }

  private static TranslatedResource resource(XdsType type, String name, Message message, Set<String> refs) {
    return new TranslatedResource(type, name, message, refs);
  }

  /** By name, sorted; a duplicate name (invalid, but never a reason to throw) keeps the first. */
  private static <T> Map<String, T> firstByName(List<T> items, Function<T, String> name) {
    Map<String, T> byName = new TreeMap<>();
    for (T item : items) {
      String key = name.apply(item);
      if (key != null) {
        byName.putIfAbsent(key, item);
      }
    }
    return byName;
  }
}
