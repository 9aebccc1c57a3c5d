package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Timestamp;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import io.signalbox.proto.v1.SnapshotEnvelope;
import io.signalbox.proto.v1.StoredResource;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * An immutable, epoch-numbered snapshot: every xDS resource Signalbox serves, with per-resource
 * and per-type versions, plus the endpoint model behind it. Built by {@link SnapshotCandidate#seal}
 * once the store has allocated the epoch, or restored from a stored envelope.
 */
public final class Snapshot {

  private final long epoch;
  // The epoch as delta's system_version_info: one string every stream sent this epoch shares.
  private final String epochVersion;
  private final long parentEpoch;
  private final String contentHash;
  private final Instant createdAt;
  private final Provenance provenance;
  private final Map<XdsType, TypeResources> types;
  private final MerkleTreap<List<EndpointSpec>> endpoints;
  private final Lineage lineage;

  /**
   * The translation and endpoint map a sealed candidate was built from, so that the next candidate
   * may apply the translator's delta instead of comparing everything (see {@link TranslatedResources}).
   */
  record Lineage(long translation, Map<String, List<EndpointSpec>> endpoints) {}

  Snapshot(
      long epoch,
      long parentEpoch,
      String contentHash,
      Instant createdAt,
      Provenance provenance,
      Map<XdsType, TypeResources> types,
      Map<String, List<EndpointSpec>> endpoints) {
    this(epoch, parentEpoch, contentHash, createdAt, provenance, types, endpoints, null);
  }

  Snapshot(
      long epoch,
      long parentEpoch,
      String contentHash,
      Instant createdAt,
      Provenance provenance,
      Map<XdsType, TypeResources> types,
      Map<String, List<EndpointSpec>> endpoints,
      Lineage lineage) {
    if (epoch <= 0) {
      throw new IllegalArgumentException("epoch must be positive, was " + epoch);
    }
    this.epoch = epoch;
    this.parentEpoch = parentEpoch;
    this.contentHash = Objects.requireNonNull(contentHash);
    this.createdAt = Objects.requireNonNull(createdAt);
    this.provenance = Objects.requireNonNull(provenance);
    EnumMap<XdsType, TypeResources> copy = new EnumMap<>(XdsType.class);
    for (XdsType t : XdsType.values()) {
      copy.put(t, types.getOrDefault(t, TypeResources.empty(t)));
    }
    this.types = Collections.unmodifiableMap(copy);
    // A candidate hands over the tree it built (values already copied), shared with its parent's.
    this.endpoints = MerkleTreap.copyOf(endpoints, ContentHash.ENDPOINTS, List::copyOf);
    this.lineage = lineage;
    this.epochVersion = Long.toString(epoch);
  }

  public long epoch() {
    return epoch;
  }

  /** {@link #epoch} as text, one instance for every stream that is sent it. */
  public String epochVersion() {
    return epochVersion;
  }

  public long parentEpoch() {
    return parentEpoch;
  }

  public String contentHash() {
    return contentHash;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Provenance provenance() {
    return provenance;
  }

  public TypeResources resources(XdsType type) {
    return types.get(type);
  }

  /** Cluster name -> endpoints with their lifecycle states, as validated for this epoch. */
  public Map<String, List<EndpointSpec>> endpoints() {
    return endpoints;
  }

  /** One cluster whose endpoint list differs between two snapshots. */
  @FunctionalInterface
  public interface EndpointChange {
    /**
     * @param before the list in the earlier snapshot, null if it did not have the cluster
     * @param after the list in this snapshot, null if it does not have the cluster
     */
    void changed(String cluster, List<EndpointSpec> before, List<EndpointSpec> after);
  }

  /**
   * Visits, in cluster order, every cluster whose endpoint list here is not the very list instance
   * {@code earlier} holds (null: an empty snapshot); equal but distinct lists are visited too. A
   * snapshot shares its unchanged lists, and the tree nodes holding them, with the one it was
   * built on, so this costs O(changed clusters × log n) along a chain of epochs rather than a pass
   * over every cluster.
   */
  public void forEachEndpointChange(Snapshot earlier, EndpointChange visitor) {
    TreapDiff.of(earlier == null ? MerkleTreap.empty(ContentHash.ENDPOINTS) : earlier.endpoints, endpoints,
        visitor::changed);
  }

  /** What this snapshot was built from; null when not known (restored, or built from a plain list). */
  Lineage lineage() {
    return lineage;
  }

  MerkleTreap<List<EndpointSpec>> endpointTree() {
    return endpoints;
  }

  public int resourceCount() {
    return types.values().stream().mapToInt(TypeResources::size).sum();
  }

  public SnapshotEnvelope toEnvelope() {
    SnapshotEnvelope.Builder b = envelopeHeader();
    for (TypeResources tr : types.values()) {
      io.signalbox.proto.v1.TypeResources.Builder tb = io.signalbox.proto.v1.TypeResources.newBuilder()
          .setTypeUrl(tr.type().typeUrl())
          .setVersionEpoch(tr.versionEpoch());
      for (XdsResource r : tr.byName().values()) {
        tb.addResources(stored(r));
      }
      b.addTypes(tb);
    }
    endpoints.forEach((cluster, list) -> list.forEach(e -> b.addEndpoints(EndpointRecords.toProto(cluster, e))));
    return b.build();
  }

  /**
   * Everything of the envelope but its resources and endpoint records. Shared with
   * {@link EnvelopeDelta}: a delta replayed on its parent must give these same bytes.
   */
  SnapshotEnvelope.Builder envelopeHeader() {
    return SnapshotEnvelope.newBuilder()
        .setEpoch(epoch)
        .setParentEpoch(parentEpoch)
        .setContentHash(contentHash)
        .setCreatedAt(Timestamp.newBuilder()
            .setSeconds(createdAt.getEpochSecond())
            .setNanos(createdAt.getNano()))
        .setProvenance(provenance);
  }

  /** One resource as an envelope (full or delta) stores it. */
  static StoredResource stored(XdsResource r) {
    return StoredResource.newBuilder()
        .setName(r.name())
        .setVersion(r.version())
        .setChangedEpoch(r.changedEpoch())
        .setResource(r.any())
        .addAllReferences(new java.util.TreeSet<>(r.references()))
        .build();
  }

  /** Restores a snapshot exactly as it was stored: same versions, same epochs, same bytes. */
  public static Snapshot fromEnvelope(SnapshotEnvelope envelope) {
    return fromEnvelope(envelope, null);
  }

  /**
   * As {@link #fromEnvelope(SnapshotEnvelope)}, for a replica that serves {@code served}: when that
   * is the stored epoch's parent, every resource it holds unchanged is its very instance and each
   * type knows the names that changed, as a snapshot the leader built does. A follower's clients
   * then look only at what changed, as the leader's do, instead of at everything they subscribe to.
   */
  public static Snapshot fromEnvelope(SnapshotEnvelope envelope, Snapshot served) {
    boolean onServed = served != null && served.epoch() == envelope.getParentEpoch() && envelope.getParentEpoch() > 0;
    EnumMap<XdsType, TypeResources> types = new EnumMap<>(XdsType.class);
    for (io.signalbox.proto.v1.TypeResources tr : envelope.getTypesList()) {
      XdsType type = typeOf(envelope, tr);
      TypeResources before = onServed ? served.resources(type) : null;
      Map<String, XdsResource> byName = new TreeMap<>();
      Set<String> changed = before == null ? null : new HashSet<>();
      for (StoredResource r : tr.getResourcesList()) {
        XdsResource was = before == null ? null : before.get(r.getName());
        if (was != null && was.version().equals(r.getVersion()) && was.changedEpoch() == r.getChangedEpoch()) {
          byName.put(r.getName(), was);
          continue;
        }
        byName.put(r.getName(), restored(type, r));
        if (changed != null) {
          changed.add(r.getName());
        }
      }
      if (before != null) {
        for (String name : before.byName().keySet()) {
          if (!byName.containsKey(name)) {
            changed.add(name);
          }
        }
      }
      types.put(type, new TypeResources(type, tr.getVersionEpoch(), byName, changed));
    }
    return restored(envelope, types, EndpointRecords.fromProto(envelope.getEndpointsList()));
  }

  /**
   * The stored epoch {@code delta} restored on the snapshot of its parent epoch, as a follower that
   * serves the parent takes the leader's next epoch: the parent's resources and endpoint lists with
   * only those the delta replaces or removes changed, so restoring costs O(change) and each type
   * knows its changed names. Equal to what {@link #fromEnvelope(SnapshotEnvelope, Snapshot)} restores
   * from the full envelope the store's replay of the delta gives.
   *
   * @throws IllegalArgumentException if {@code delta} is not a delta on {@code parent}'s epoch
   */
  public static Snapshot fromDelta(SnapshotEnvelope delta, Snapshot parent) {
    if (!delta.getDelta() || delta.getParentEpoch() != parent.epoch()) {
      throw new IllegalArgumentException("stored epoch " + delta.getEpoch() + " is " + (delta.getDelta()
          ? "a delta on epoch " + delta.getParentEpoch() : "not a delta") + ", not a delta on epoch " + parent.epoch());
    }
    EnumMap<XdsType, TypeResources> types = new EnumMap<>(XdsType.class);
    for (io.signalbox.proto.v1.TypeResources tr : delta.getTypesList()) {
      XdsType type = typeOf(delta, tr);
      MerkleTreap<XdsResource> byName = MerkleTreap.copyOf(parent.resources(type).byName(), ContentHash.RESOURCE,
          r -> r);
      Set<String> changed = new HashSet<>();
      for (String name : tr.getRemovedList()) {
        byName = byName.without(name);
        changed.add(name);
      }
      for (StoredResource r : tr.getResourcesList()) {
        byName = byName.with(r.getName(), restored(type, r));
        changed.add(r.getName());
      }
      types.put(type, new TypeResources(type, tr.getVersionEpoch(), byName, changed));
    }
    for (TypeResources before : parent.types.values()) {
      // A type the delta does not list is unchanged, at its version.
      types.computeIfAbsent(before.type(),
          t -> new TypeResources(t, before.versionEpoch(), before.byName(), Set.of()));
    }
    MerkleTreap<List<EndpointSpec>> endpoints = parent.endpoints;
    for (String cluster : delta.getRemovedEndpointClustersList()) {
      endpoints = endpoints.without(cluster);
    }
    for (Map.Entry<String, List<EndpointSpec>> e : EndpointRecords.fromProto(delta.getEndpointsList()).entrySet()) {
      endpoints = endpoints.with(e.getKey(), List.copyOf(e.getValue()));
    }
    return restored(delta, types, endpoints);
  }

  private static XdsType typeOf(SnapshotEnvelope envelope, io.signalbox.proto.v1.TypeResources tr) {
    XdsType type = XdsType.fromTypeUrl(tr.getTypeUrl());
    if (type == null) {
      throw new IllegalArgumentException("stored epoch " + envelope.getEpoch() + " has unknown type " + tr.getTypeUrl());
    }
    return type;
  }

  /** A snapshot with {@code envelope}'s header (epoch, parent, hash, time, provenance). */
  private static Snapshot restored(SnapshotEnvelope envelope, Map<XdsType, TypeResources> types,
      Map<String, List<EndpointSpec>> endpoints) {
    Timestamp ts = envelope.getCreatedAt();
    return new Snapshot(envelope.getEpoch(), envelope.getParentEpoch(), envelope.getContentHash(),
        Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos()), envelope.getProvenance(), types, endpoints);
  }

  private static XdsResource restored(XdsType type, StoredResource r) {
    return new XdsResource.Stored(type, r.getName(), r.getVersion(), r.getChangedEpoch(), r.getResource(),
        Set.copyOf(r.getReferencesList()));
  }

  @Override
  public String toString() {
    return "Snapshot{epoch=" + epoch + ", parent=" + parentEpoch + ", resources=" + resourceCount()
        + ", hash=" + contentHash.substring(0, Math.min(12, contentHash.length())) + "}";
  }
}
