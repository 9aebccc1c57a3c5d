package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import com.google.protobuf.UnsafeByteOperations;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns translated resources into a {@link SnapshotCandidate}, versioning each resource by the
 * SHA-256 of its deterministic serialization. A resource whose message is the very instance the
 * parent snapshot holds (the translator reuses unchanged ones) is carried over without being
 * serialized again; any other resource is serialized exactly once, and its bytes become the
 * {@link Any} every client receives.
 *
 * <p>Used by the reconciler's single writer thread; the counter may be read from any thread.
 */
public final class SnapshotBuilder {

  private final LongAdder serializations = new LongAdder();

  /** How many resources have been serialized so far: a measure of encode-once. */
  public long serializations() {
    return serializations.sum();
  }

  /**
   * Versions {@code translated} against {@code parent}. Work is proportional to what changed: with
   * the translator's {@link TranslatedResources.Delta} relative to what {@code parent} was built
   * from, only the resources and endpoint lists it names are looked at; otherwise one pass over the
   * (name-ordered) inputs recognises unchanged ones by identity (or equality). Either way the
   * parent's tree nodes, bytes and hashes are shared wherever nothing changed.
   */
  public SnapshotCandidate candidate(
      List<TranslatedResource> translated,
      Map<String, List<EndpointSpec>> endpoints,
      Snapshot parent,
      Provenance provenance) {
    TranslatedResources.Delta delta = usableDelta(translated, endpoints, parent);
    EnumMap<XdsType, TreapUpdate<XdsResource>> byType = new EnumMap<>(XdsType.class);
    TreapUpdate<List<EndpointSpec>> endpointUpdate;
    if (delta != null) {
      for (XdsType t : XdsType.ORDERED) {
        byType.put(t, TreapUpdate.applying(parent.resources(t).tree(), delta.changed().getOrDefault(t, List.of()),
            TranslatedResource::name, this::version, delta.removed().getOrDefault(t, List.of())));
      }
      endpointUpdate = TreapUpdate.applying(parent.endpointTree(), delta.endpointsChanged(), name -> name,
          (name, was) -> endpointList(endpoints.get(name), was), delta.endpointsRemoved());
    } else {
      List<List<TranslatedResource>> listings = new ArrayList<>();
      for (XdsType t : XdsType.ORDERED) {
        listings.add(new ArrayList<>(t == XdsType.CLUSTER || t == XdsType.ENDPOINT ? translated.size() / 2 : 16));
      }
      for (TranslatedResource tr : translated) {
        listings.get(tr.type().ordinal()).add(tr);
      }
      for (XdsType t : XdsType.ORDERED) {
        MerkleTreap<XdsResource> before = parent == null ? MerkleTreap.empty(ContentHash.RESOURCE)
            : parent.resources(t).tree();
        byType.put(t, TreapUpdate.of(before, listings.get(t.ordinal()), TranslatedResource::name, this::version,
            name -> "translation produced two " + t + " named '" + name + "'"));
      }
      MerkleTreap<List<EndpointSpec>> endpointsBefore = parent == null ? MerkleTreap.empty(ContentHash.ENDPOINTS)
          : parent.endpointTree();
      endpointUpdate = TreapUpdate.of(endpointsBefore, endpoints.entrySet(), Map.Entry::getKey,
          (entry, was) -> endpointList(entry.getValue(), was), name -> "two endpoint lists for cluster '" + name + "'");
    }
    Snapshot.Lineage lineage = translated instanceof TranslatedResources tr
        ? new Snapshot.Lineage(tr.id(), endpoints) : null;
    return new SnapshotCandidate(parent, byType, endpointUpdate.map(), provenance, lineage);
  }

  /**
   * The translator's delta if it is relative to exactly what {@code parent} was built from and
   * describes exactly these endpoints; else null (compare everything).
   */
  static TranslatedResources.Delta usableDelta(List<TranslatedResource> translated,
      Map<String, List<EndpointSpec>> endpoints, Snapshot parent) {
    if (parent == null || parent.lineage() == null || !(translated instanceof TranslatedResources tr)) {
      return null;
    }
    TranslatedResources.Delta delta = tr.delta();
    if (delta == null || delta.base() != parent.lineage().translation() || delta.endpoints() != endpoints
        || delta.baseEndpoints() != parent.lineage().endpoints()) {
      return null;
    }
    return delta;
  }

  /** The parent's list when equal, so the next epoch recognises it by identity. */
  private static List<EndpointSpec> endpointList(List<EndpointSpec> now, List<EndpointSpec> was) {
    if (was != null && (was == now || was.equals(now))) {
      return was;
    }
    return List.copyOf(now);
  }

  private XdsResource version(TranslatedResource tr, XdsResource previous) {
    if (previous instanceof XdsResource.Built built && built.message() == tr.message()) {
      return previous;
    }
    byte[] bytes = serialize(tr.message());
    serializations.increment();
    String version = sha256(bytes);
    if (previous != null && previous.version().equals(version)
        && previous.references().equals(tr.references())) {
      // Same content from a fresh message: keep the old instance (and its bytes) so clients and the
      // next candidate see an unchanged resource.
      return new XdsResource.Built(previous.type(), previous.name(), previous.version(), previous.changedEpoch(),
          tr.message(), previous.any(), previous.references());
    }
    Any any = Any.newBuilder()
        .setTypeUrl(tr.type().typeUrl())
        .setValue(UnsafeByteOperations.unsafeWrap(bytes))
        .build();
    return new XdsResource.Built(tr.type(), tr.name(), version, SnapshotCandidate.UNSEALED, tr.message(), any,
        tr.references());
  }

  /** The version a resource with this content has: hex SHA-256 of its deterministic serialization. */
  public static String versionOf(Message message) {
    return sha256(serialize(message));
  }

  static byte[] serialize(Message message) {
    byte[] bytes = new byte[message.getSerializedSize()];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.useDeterministicSerialization();
    try {
      message.writeTo(out);
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("serializing " + message.getDescriptorForType().getFullName(), e);
    }
    return bytes;
  }

  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
