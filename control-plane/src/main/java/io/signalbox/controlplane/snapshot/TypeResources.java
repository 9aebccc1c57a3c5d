package io.signalbox.controlplane.snapshot;

import com.google.common.collect.ImmutableSortedSet;
import java.util.Map;
import java.util.Set;

/**
 * The resources of one type in a sealed snapshot.
 *
 * @param versionEpoch the epoch that last changed this type (a resource added, changed or removed);
 *     the type's {@code version_info} is derived from it, so it moves only when the type changes
 * @param byName sorted by name; immutable, and sharing structure with the parent snapshot's map
 * @param changedSinceParent the names added, changed or removed since the parent snapshot, null if
 *     not known; immutable, and iterated in name order, so no client's response sorts them again
 */
public record TypeResources(XdsType type, long versionEpoch, Map<String, XdsResource> byName,
    Set<String> changedSinceParent) {

  public TypeResources {
    byName = MerkleTreap.copyOf(byName, ContentHash.RESOURCE, r -> r);
    changedSinceParent = changedSinceParent == null ? null : ImmutableSortedSet.copyOf(changedSinceParent);
  }

  /** A type whose changes since the parent snapshot are not known (restored from storage). */
  public TypeResources(XdsType type, long versionEpoch, Map<String, XdsResource> byName) {
    this(type, versionEpoch, byName, null);
  }

  public static TypeResources empty(XdsType type) {
    return new TypeResources(type, 0, Map.of(), Set.of());
  }

  /**
   * Names added, changed or removed since the parent snapshot; null when not known. Lets a client
   * that held the parent's content look only at these instead of everything it subscribes to.
   */
  @Override
  public Set<String> changedSinceParent() {
    return changedSinceParent;
  }

  public XdsResource get(String name) {
    return byName.get(name);
  }

  public int size() {
    return byName.size();
  }

  /** The {@code version_info} clients see for this type. */
  public String version() {
    return Long.toString(versionEpoch);
  }

  /**
   * These resources with each passed through {@code f} (which keeps names and must be a function of
   * the resource alone). With {@code mappedParent}, {@code f} applied to the parent snapshot's
   * resources of this type, only the names changed since the parent are mapped again; otherwise
   * every resource is.
   */
  public TypeResources mapped(java.util.function.UnaryOperator<XdsResource> f, TypeResources mappedParent) {
    MerkleTreap<XdsResource> tree;
    if (mappedParent != null && changedSinceParent != null) {
      tree = mappedParent.tree();
      for (String name : changedSinceParent) {
        XdsResource r = byName.get(name);
        tree = r == null ? tree.without(name) : tree.with(name, f.apply(r));
      }
    } else {
      int n = byName.size();
      String[] keys = new String[n];
      XdsResource[] values = new XdsResource[n];
      int i = 0;
      for (Map.Entry<String, XdsResource> e : byName.entrySet()) {
        keys[i] = e.getKey();
        values[i++] = f.apply(e.getValue());
      }
      tree = MerkleTreap.ofSorted(keys, values, n, ContentHash.RESOURCE);
    }
    return new TypeResources(type, versionEpoch, tree, changedSinceParent);
  }

  MerkleTreap<XdsResource> tree() {
    return (MerkleTreap<XdsResource>) byName;
  }
}
