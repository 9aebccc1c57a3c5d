package io.signalbox.controlplane.snapshot;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resources of one type in a sealed snapshot.
 *
 * @param versionEpoch the epoch that last changed this type (a resource added, changed or removed);
 *     the type's {@code version_info} is derived from it, so it moves only when the type changes
 * @param byName sorted by name
 */
public record TypeResources(XdsType type, long versionEpoch, Map<String, XdsResource> byName) {

  public TypeResources {
    byName = Collections.unmodifiableMap(new TreeMap<>(byName));
  }

  public static TypeResources empty(XdsType type) {
    return new TypeResources(type, 0, Map.of());
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
}
