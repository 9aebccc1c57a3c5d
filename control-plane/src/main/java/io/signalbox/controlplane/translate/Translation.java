package io.signalbox.controlplane.translate;

import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.TranslatedResources;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.ClusterSpec;
import io.signalbox.model.EndpointSpec;
import java.util.AbstractList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.TreeMap;

/**
 * The xDS resources one {@link io.signalbox.model.DesiredState desired state} translates to, plus what the next
 * translation needs to reuse unchanged resources. Immutable; pass it back to {@link
 * XdsTranslator#translate(io.signalbox.model.DesiredState, Translation)} as {@code previous}.
 */
public final class Translation {

  private static final Translation EMPTY = new Translation(Declared.of(List.of()), Map.of(), new String[0],
      new Memo<?>[0], new Memo<?>[0], new boolean[0], Map.of(), Map.of(), null);

  /** One input and the resource it translated to; reused while the input stays equal. */
  record Memo<I>(I input, TranslatedResource output) {}

  /**
   * The declared clusters by name (first declaration wins), sorted, and the list they were taken
   * from, so that the next translation can tell the list is unchanged without re-sorting it.
   */
  record Declared(List<ClusterSpec> source, String[] names, ClusterSpec[] specs) {

    static Declared of(List<ClusterSpec> clusters) {
      TreeMap<String, ClusterSpec> byName = new TreeMap<>();
      for (ClusterSpec c : clusters) {
        if (c != null && c.name() != null) {
          byName.putIfAbsent(c.name(), c);
        }
      }
      return new Declared(clusters, byName.keySet().toArray(new String[0]),
          byName.values().toArray(new ClusterSpec[0]));
    }

    /** These declarations, taken from {@code clusters}, which must be an equal list. */
    Declared from(List<ClusterSpec> clusters) {
      return clusters == source ? this : new Declared(clusters, names, specs);
    }

    /** Whether {@code clusters} is this list: the same instance, or equal. */
    boolean isFrom(List<ClusterSpec> clusters) {
      return source == clusters || source.equals(clusters);
    }
  }

  private final Declared declared;
  private final Map<String, List<EndpointSpec>> endpoints;
  private final String[] clusterNames;
  private final Memo<?>[] clusters;
  private final Memo<?>[] assignments;
  private final boolean[] hasEndpoints;
  private final Map<String, Memo<?>> listeners;
  private final Map<String, Memo<?>> routes;
  private final Map<XdsType, List<TranslatedResource>> byType;
  private final TranslatedResources resources;

  /**
   * Takes ownership of the arrays and maps (no copy: at 10,000 clusters copying them would be a
   * noticeable share of an epoch's budget); callers must not touch them afterwards.
   *
   * @param endpoints the endpoint map translated (kept by identity, for the delta)
   * @param clusterNames every cluster, sorted; {@code clusters}, {@code assignments} and {@code
   *     hasEndpoints} (whether {@code endpoints} holds the cluster) are parallel to it
   * @param delta what changed since the translation this one reused; null if not known
   */
  Translation(
      Declared declared,
      Map<String, List<EndpointSpec>> endpoints,
      String[] clusterNames,
      Memo<?>[] clusters,
      Memo<?>[] assignments,
      boolean[] hasEndpoints,
      Map<String, Memo<?>> listeners,
      Map<String, Memo<?>> routes,
      TranslatedResources.Delta delta) {
    this.declared = declared;
    this.endpoints = endpoints;
    this.clusterNames = clusterNames;
    this.clusters = clusters;
    this.assignments = assignments;
    this.hasEndpoints = hasEndpoints;
    this.listeners = Collections.unmodifiableMap(listeners);
    this.routes = Collections.unmodifiableMap(routes);
    // A view, not a copy: an epoch reads the few resources its delta names, and gathering all
    // 20,002 outputs of 10,000 clusters into a new list was a pass over every memo per epoch.
    Memo<?>[] small = new Memo<?>[listeners.size() + routes.size()];
    int k = 0;
    for (Memo<?> m : listeners.values()) {
      small[k++] = m;
    }
    for (Memo<?> m : routes.values()) {
      small[k++] = m;
    }
    List<TranslatedResource> all = new Outputs(clusters, assignments, small);
    this.resources = new TranslatedResources(all, delta);
    int c = clusters.length;
    int l = listeners.size();
    EnumMap<XdsType, List<TranslatedResource>> types = new EnumMap<>(XdsType.class);
    types.put(XdsType.CLUSTER, resources.subList(0, c));
    types.put(XdsType.ENDPOINT, resources.subList(c, 2 * c));
    types.put(XdsType.LISTENER, resources.subList(2 * c, 2 * c + l));
    types.put(XdsType.ROUTE, resources.subList(2 * c + l, resources.size()));
    this.byType = Collections.unmodifiableMap(types);
  }

  /** Every memo's output, clusters, then assignments, then listeners and route configs; immutable. */
  private static final class Outputs extends AbstractList<TranslatedResource> implements RandomAccess {
    private final Memo<?>[] clusters;
    private final Memo<?>[] assignments;
    private final Memo<?>[] small;

    Outputs(Memo<?>[] clusters, Memo<?>[] assignments, Memo<?>[] small) {
      this.clusters = clusters;
      this.assignments = assignments;
      this.small = small;
    }

    @Override
    public TranslatedResource get(int index) {
      int c = clusters.length;
      if (index < 0 || index >= size()) {
        throw new IndexOutOfBoundsException("index " + index + " of " + size());
      }
      return index < c ? clusters[index].output() : index < 2 * c ? assignments[index - c].output()
          : small[index - 2 * c].output();
    }

    @Override
    public int size() {
      return 2 * clusters.length + small.length;
    }
  }

  /** The translation of nothing: the {@code previous} of a first translation. */
  public static Translation empty() {
    return EMPTY;
  }

  /**
   * Every resource, in {@link XdsType#ORDERED push order} and by name within a type, with what
   * changed since the translation this one reused (see {@link TranslatedResources}).
   */
  public List<TranslatedResource> resources() {
    return resources;
  }

  /** Identity of {@link #resources()}, the base of the next translation's delta. */
  long id() {
    return resources.id();
  }

  Map<String, List<EndpointSpec>> endpoints() {
    return endpoints;
  }

  /** Parallel to {@link #clusterNames()}; do not modify. */
  boolean[] hasEndpoints() {
    return hasEndpoints;
  }

  /** The resources of one type, by name. */
  public List<TranslatedResource> ofType(XdsType type) {
    return byType.get(type);
  }

  Declared declared() {
    return declared;
  }

  /** Every cluster's name, sorted; do not modify. */
  String[] clusterNames() {
    return clusterNames;
  }

  /** Parallel to {@link #clusterNames()}; do not modify. */
  Memo<?>[] clusterMemos() {
    return clusters;
  }

  /** Parallel to {@link #clusterNames()}; do not modify. */
  Memo<?>[] assignmentMemos() {
    return assignments;
  }

  Memo<?> listener(String name) {
    return listeners.get(name);
  }

  Map<String, Memo<?>> listeners() {
    return listeners;
  }

  Map<String, Memo<?>> routes() {
    return routes;
  }

  Memo<?> route(String name) {
    return routes.get(name);
  }

  @Override
  public String toString() {
    return "Translation{clusters=" + clusters.length + ", listeners=" + listeners.size()
        + ", routeConfigs=" + routes.size() + "}";
  }
}
