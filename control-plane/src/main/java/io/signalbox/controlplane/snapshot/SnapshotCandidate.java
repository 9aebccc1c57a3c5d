package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A validated, versioned set of resources that has no epoch yet. {@link #seal} gives it the epoch
 * the store allocated; resources new in this candidate take that epoch as their
 * {@code changedEpoch}, and a type's version moves to it only if one of its resources was added,
 * changed or removed. Immutable: sealing leaves the candidate as it was.
 */
public final class SnapshotCandidate {

  /** {@code changedEpoch} of a resource that first appears in this candidate. */
  static final long UNSEALED = -1;

  private final Snapshot parent;
  private final Map<XdsType, MerkleTreap<XdsResource>> byType = new EnumMap<>(XdsType.class);
  private final Map<XdsType, List<String>> changed = new EnumMap<>(XdsType.class);
  private final Map<XdsType, List<String>> removed = new EnumMap<>(XdsType.class);
  private final MerkleTreap<List<EndpointSpec>> endpoints;
  private final Provenance provenance;
  private final String contentHash;
  private final Snapshot.Lineage lineage;

  SnapshotCandidate(
      Snapshot parent,
      Map<XdsType, TreapUpdate<XdsResource>> updates,
      MerkleTreap<List<EndpointSpec>> endpoints,
      Provenance provenance,
      Snapshot.Lineage lineage) {
    this.parent = parent;
    this.lineage = lineage;
    for (XdsType type : XdsType.values()) {
      TreapUpdate<XdsResource> u = updates.get(type);
      byType.put(type, u.map());
      List<String> fresh = new ArrayList<>(u.changed().size());
      for (int i = 0; i < u.changed().size(); i++) {
        // A fresh message with the same content replaces the instance but is not a change.
        if (u.changedValues().get(i).changedEpoch() == UNSEALED) {
          fresh.add(u.changed().get(i));
        }
      }
      changed.put(type, List.copyOf(fresh));
      removed.put(type, parent == null ? List.of() : u.removed());
    }
    this.endpoints = endpoints;
    this.provenance = Objects.requireNonNull(provenance);
    this.contentHash = ContentHash.of(byType, endpoints);
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

  /** Names of resources of {@code type} that are new or changed relative to the parent, sorted. */
  public List<String> changed(XdsType type) {
    return changed.get(type);
  }

  /**
   * The message translation produced for {@code name}, one of {@link #changed}{@code (type)}: a
   * changed resource is always built from a translated message, never restored from bytes.
   */
  public com.google.protobuf.Message changedMessage(XdsType type, String name) {
    XdsResource r = byType.get(type).get(name);
    if (!(r instanceof XdsResource.Built built) || r.changedEpoch() != UNSEALED) {
      throw new IllegalArgumentException(type + " '" + name + "' is not a changed resource of this candidate");
    }
    return built.message();
  }

  /** Names of resources of {@code type} that the parent had and this candidate does not, sorted. */
  public List<String> removed(XdsType type) {
    return removed.get(type);
  }

  /**
   * How a store appends this candidate: sealed with the epoch the store allocates and the clock's
   * time then, stored whole or as a delta on its parent ({@link EnvelopeDelta}) as the store
   * chooses.
   */
  public io.signalbox.store.EpochSealer<Snapshot> sealer(java.time.Clock clock) {
    return new io.signalbox.store.EpochSealer<>() {
      @Override
      public Snapshot seal(long epoch) {
        return SnapshotCandidate.this.seal(epoch, clock.instant());
      }

      @Override
      public io.signalbox.proto.v1.SnapshotEnvelope envelope(Snapshot sealed) {
        return sealed.toEnvelope();
      }

      @Override
      public java.util.Optional<io.signalbox.proto.v1.SnapshotEnvelope> delta(Snapshot sealed) {
        return EnvelopeDelta.of(parent, sealed);
      }
    };
  }

  public Snapshot seal(long epoch, Instant createdAt) {
    if (parent != null && epoch <= parent.epoch()) {
      throw new IllegalArgumentException(
          "epoch " + epoch + " would not be newer than its parent " + parent.epoch());
    }
    EnumMap<XdsType, TypeResources> types = new EnumMap<>(XdsType.class);
    for (XdsType type : XdsType.values()) {
      List<String> fresh = changed.get(type);
      // The epoch is not part of a resource's content, so the nodes' cached hashes stay valid.
      MerkleTreap<XdsResource> sealed = byType.get(type)
          .withSameContent(fresh.toArray(new String[0]), r -> r.withChangedEpoch(epoch));
      Set<String> changedNames = new HashSet<>(fresh);
      changedNames.addAll(removed.get(type));
      boolean typeChanged = parent == null || !changedNames.isEmpty();
      long versionEpoch = typeChanged ? epoch : parent.resources(type).versionEpoch();
      types.put(type, new TypeResources(type, versionEpoch, sealed, parent == null ? null : changedNames));
    }
    return new Snapshot(epoch, parent == null ? 0 : parent.epoch(), contentHash, createdAt, provenance,
        types, endpoints, lineage);
  }
}
