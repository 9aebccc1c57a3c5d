package io.signalbox.controlplane.translate;

import com.google.protobuf.Message;
import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.DesiredState;
import io.signalbox.model.EndpointSpec;
import io.signalbox.model.ListenerSpec;
import io.signalbox.model.RouteConfigSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * on its cluster's endpoint list), so {@link #translate(DesiredState, Translation)} returns the
 * <i>same</i> {@link TranslatedResource} instance as {@code previous} did wherever that input is
 * equal (record equality). A one-endpoint change among 10,000 clusters then builds one
 * ClusterLoadAssignment, and later stages can skip re-hashing by identity. The memo lives in the
 * {@link Translation} value passed in and out, not in this class.
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
    Map<String, ClusterSpec> declared = firstByName(state.clusters(), ClusterSpec::name);
    int capacity = capacity(declared.size() + state.endpoints().size());
    Map<String, Translation.Memo<?>> clusters = new LinkedHashMap<>(capacity);
    Map<String, Translation.Memo<?>> assignments = new LinkedHashMap<>(capacity);
    for (String name : clusterNames(declared.keySet(), state.endpoints().keySet())) {
      ClusterSpec spec = declared.get(name);
      if (spec == null) {
        spec = ClusterSpec.named(name); // discovered by a source only: the defaults
      }
      clusters.put(
          name,
          reuseOrBuild(
              previous.cluster(name),
              spec,
              s -> resource(XdsType.CLUSTER, name, ClusterTranslator.toCluster(s), Set.of(name))));
      List<EndpointSpec> endpoints = state.endpointsOf(name);
      assignments.put(
          name,
          reuseOrBuild(
              previous.assignment(name),
              endpoints,
              e -> resource(XdsType.ENDPOINT, name, AssignmentTranslator.toAssignment(name, e), Set.of())));
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
    return new Translation(clusters, assignments, listeners, routes);
  }

  /**
   * The union of two sorted name sets, sorted, by merging rather than re-sorting: the endpoint map
   * is already sorted and holds every cluster, and at 10,000 clusters re-inserting them all into a
   * tree costs a measurable share of the time one endpoint change may take.
   */
  private static List<String> clusterNames(Set<String> declared, Set<String> withEndpoints) {
    List<String> names = new ArrayList<>(declared.size() + withEndpoints.size());
    Iterator<String> a = declared.iterator();
    Iterator<String> b = withEndpoints.iterator();
    String x = a.hasNext() ? a.next() : null;
    String y = b.hasNext() ? b.next() : null;
    while (x != null || y != null) {
      int order = x == null ? 1 : y == null ? -1 : x.compareTo(y);
      names.add(order <= 0 ? x : y);
      if (order <= 0) {
        x = a.hasNext() ? a.next() : null;
      }
      if (order >= 0) {
        y = b.hasNext() ? b.next() : null;
      }
    }
    for (int i = 1; i < names.size(); i++) {
      if (names.get(i - 1).compareTo(names.get(i)) >= 0) {
        // An input that was not sorted after all: correct, just slower.
        TreeSet<String> sorted = new TreeSet<>(declared);
        sorted.addAll(withEndpoints);
        return new ArrayList<>(sorted);
      }
    }
    return names;
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

  private static int capacity(int size) {
    return (int) (size / 0.75f) + 1;
  }
}
