package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A validated, versioned set of resources that has no epoch yet. {@link #seal} gives it the epoch
 * the store allocated; resources new in this candidate take that epoch as their
 * {@code changedEpoch}, and a type's version moves to it only if one of its resources was added,
 * changed or removed.
 */
public final class SnapshotCandidate {

  /** {@code changedEpoch} of a resource that first appears in this candidate. */
  static final long UNSEALED = -1;

  private final Snapshot parent;
  private final Map<XdsType, Map<String, XdsResource>> byType;
  private final Map<String, List<EndpointSpec>> endpoints;
  private final Provenance provenance;
  private final String contentHash;

  SnapshotCandidate(
      Snapshot parent,
      Map<XdsType, Map<String, XdsResource>> byType,
      Map<String, List<EndpointSpec>> endpoints,
      Provenance provenance,
      String contentHash) {
    this.parent = parent;
    this.byType = byType;
    this.endpoints = endpoints;
    this.provenance = Objects.requireNonNull(provenance);
    this.contentHash = contentHash;
  }

  public String contentHash() {
    return contentHash;
  }

  /** True when sealing would publish nothing new: identical content creates no epoch. */
  public boolean sameContentAs(Snapshot snapshot) {
    return snapshot != null && snapshot.contentHash().equals(contentHash);
  }

  public Snapshot parent() {
    return parent;
  }

  /** Names of resources of {@code type} that are new or changed relative to the parent. */
  public List<String> changed(XdsType type) {
    return byType.get(type).values().stream()
        .filter(r -> r.changedEpoch() == UNSEALED)
        .map(XdsResource::name)
        .toList();
  }

  /** Names of resources of {@code type} that the parent had and this candidate does not. */
  public List<String> removed(XdsType type) {
    if (parent == null) {
      return List.of();
    }
    return parent.resources(type).byName().keySet().stream()
        .filter(name -> !byType.get(type).containsKey(name))
        .toList();
  }

  public Snapshot seal(long epoch, Instant createdAt) {
    if (parent != null && epoch <= parent.epoch()) {
      throw new IllegalArgumentException(
          "epoch " + epoch + " would not be newer than its parent " + parent.epoch());
    }
    EnumMap<XdsType, TypeResources> types = new EnumMap<>(XdsType.class);
    for (var entry : byType.entrySet()) {
      XdsType type = entry.getKey();
      TreeMap<String, XdsResource> sealed = new TreeMap<>();
      java.util.Set<String> changedNames = new java.util.HashSet<>(removed(type));
      for (XdsResource r : entry.getValue().values()) {
        if (r.changedEpoch() == UNSEALED) {
          sealed.put(r.name(), r.withChangedEpoch(epoch));
          changedNames.add(r.name());
        } else {
          sealed.put(r.name(), r);
        }
      }
      boolean changed = parent == null || !changedNames.isEmpty();
      long versionEpoch = changed ? epoch : parent.resources(type).versionEpoch();
      types.put(type, new TypeResources(type, versionEpoch, sealed, parent == null ? null : changedNames));
    }
    return new Snapshot(epoch, parent == null ? 0 : parent.epoch(), contentHash, createdAt, provenance,
        types, endpoints);
  }
}
