package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointSpec;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every resource one translation produced (an unmodifiable list, in push order) plus, when known,
 * how it differs from the translation before it. The translator knows which resources it rebuilt;
 * handing that over lets {@link SnapshotBuilder} version only those instead of comparing 20,000
 * resources with the parent snapshot's to find the one that changed.
 *
 * <p>The builder uses the {@link Delta} only when the parent snapshot was built from exactly the
 * translation the delta is relative to (same {@link #id}) and the same endpoint map; in every other
 * case (a rejected candidate in between, resources replaced by a quarantine, a first epoch) it
 * compares everything, so a stale delta can cost time but never correctness.
 */
public final class TranslatedResources extends AbstractList<TranslatedResource> implements RandomAccess {

  private static final AtomicLong IDS = new AtomicLong();

  /**
   * What changed since the translation with id {@code base}.
   *
   * @param endpoints the endpoint map this translation was made from (compared by identity)
   * @param baseEndpoints the endpoint map the base translation was made from (by identity)
   * @param changed per type, resources that are new or a different instance than in the base, by name
   * @param removed per type, names the base had and this translation has not, sorted
   * @param endpointsChanged clusters of {@code endpoints} whose list is new or not equal to the base's, sorted
   * @param endpointsRemoved clusters {@code baseEndpoints} had and {@code endpoints} has not, sorted
   */
  public record Delta(long base, Map<String, List<EndpointSpec>> endpoints,
      Map<String, List<EndpointSpec>> baseEndpoints, Map<XdsType, List<TranslatedResource>> changed, Map<XdsType, List<String>> removed,
      List<String> endpointsChanged, List<String> endpointsRemoved) {
    public Delta {
      Objects.requireNonNull(endpoints, "endpoints");
      Objects.requireNonNull(baseEndpoints, "baseEndpoints");
      changed = Map.copyOf(changed);
      removed = Map.copyOf(removed);
      endpointsChanged = List.copyOf(endpointsChanged);
      endpointsRemoved = List.copyOf(endpointsRemoved);
    }
  }

  private final long id = IDS.incrementAndGet();
  private final List<TranslatedResource> all;
  private final Delta delta;

  /** Takes ownership of {@code all}, which must not be modified afterwards. */
  public TranslatedResources(List<TranslatedResource> all, Delta delta) {
    this.all = Objects.requireNonNull(all, "all");
    this.delta = delta;
  }

  /** Unique to this instance: what a later translation's {@link Delta#base} names. */
  public long id() {
    return id;
  }

  /** How this differs from an earlier translation; null when not known. */
  public Delta delta() {
    return delta;
  }

  @Override
  public TranslatedResource get(int index) {
    return all.get(index);
  }

  @Override
  public int size() {
    return all.size();
  }
}
