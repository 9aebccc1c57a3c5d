package io.signalbox.controlplane.translate;

import io.signalbox.controlplane.snapshot.TranslatedResource;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The xDS resources one {@link io.signalbox.model.DesiredState desired state} translates to, plus what the next
 * translation needs to reuse unchanged resources. Immutable; pass it back to {@link
 * XdsTranslator#translate(io.signalbox.model.DesiredState, Translation)} as {@code previous}.
 */
public final class Translation {

  private static final Translation EMPTY = new Translation(Map.of(), Map.of(), Map.of(), Map.of());

  /** One input and the resource it translated to; reused while the input stays equal. */
  record Memo<I>(I input, TranslatedResource output) {}

  private final Map<String, Memo<?>> clusters;
  private final Map<String, Memo<?>> assignments;
  private final Map<String, Memo<?>> listeners;
  private final Map<String, Memo<?>> routes;
  private final Map<XdsType, List<TranslatedResource>> byType;
  private final List<TranslatedResource> resources;

  /**
   * Takes ownership of the maps (no copy: at 10,000 clusters copying them would be a noticeable
   * share of an epoch's budget); callers must not touch them afterwards. Each map's iteration order
   * is the order its resources are listed in.
   */
  Translation(
      Map<String, Memo<?>> clusters,
      Map<String, Memo<?>> assignments,
      Map<String, Memo<?>> listeners,
      Map<String, Memo<?>> routes) {
    this.clusters = Collections.unmodifiableMap(clusters);
    this.assignments = Collections.unmodifiableMap(assignments);
    this.listeners = Collections.unmodifiableMap(listeners);
    this.routes = Collections.unmodifiableMap(routes);
    EnumMap<XdsType, List<TranslatedResource>> types = new EnumMap<>(XdsType.class);
    types.put(XdsType.CLUSTER, outputs(clusters));
    types.put(XdsType.ENDPOINT, outputs(assignments));
    types.put(XdsType.LISTENER, outputs(listeners));
    types.put(XdsType.ROUTE, outputs(routes));
    this.byType = Collections.unmodifiableMap(types);
    List<TranslatedResource> all = new ArrayList<>();
    for (XdsType type : XdsType.ORDERED) {
      all.addAll(types.get(type));
    }
    this.resources = Collections.unmodifiableList(all);
  }

  /** The translation of nothing: the {@code previous} of a first translation. */
  public static Translation empty() {
    return EMPTY;
  }

  /** Every resource, in {@link XdsType#ORDERED push order} and by name within a type. */
  public List<TranslatedResource> resources() {
    return resources;
  }

  /** The resources of one type, by name. */
  public List<TranslatedResource> ofType(XdsType type) {
    return byType.get(type);
  }

  Memo<?> cluster(String name) {
    return clusters.get(name);
  }

  Memo<?> assignment(String name) {
    return assignments.get(name);
  }

  Memo<?> listener(String name) {
    return listeners.get(name);
  }

  Memo<?> route(String name) {
    return routes.get(name);
  }

  private static List<TranslatedResource> outputs(Map<String, Memo<?>> memos) {
    List<TranslatedResource> out = new ArrayList<>(memos.size());
    for (Memo<?> memo : memos.values()) {
      out.add(memo.output());
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public String toString() {
    return "Translation{clusters=" + clusters.size() + ", listeners=" + listeners.size()
        + ", routeConfigs=" + routes.size() + "}";
  }
}
