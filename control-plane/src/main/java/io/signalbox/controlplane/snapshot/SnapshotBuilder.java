package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import com.google.protobuf.UnsafeByteOperations;
import io.signalbox.model.EndpointSpec;
import io.signalbox.proto.v1.Provenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

  public SnapshotCandidate candidate(
      List<TranslatedResource> translated,
      Map<String, List<EndpointSpec>> endpoints,
      Snapshot parent,
      Provenance provenance) {
    EnumMap<XdsType, Map<String, XdsResource>> byType = new EnumMap<>(XdsType.class);
    for (XdsType t : XdsType.values()) {
      byType.put(t, new TreeMap<>());
    }
    for (TranslatedResource tr : translated) {
      XdsResource previous = parent == null ? null : parent.resources(tr.type()).get(tr.name());
      XdsResource resource = version(tr, previous);
      if (byType.get(tr.type()).put(tr.name(), resource) != null) {
        throw new IllegalArgumentException("translation produced two " + tr.type() + " named '" + tr.name() + "'");
      }
    }
    return new SnapshotCandidate(parent, byType, endpoints, provenance, contentHash(byType, endpoints));
  }

  private XdsResource version(TranslatedResource tr, XdsResource previous) {
    if (previous != null && previous.message() == tr.message()) {
      return previous;
    }
    byte[] bytes = serialize(tr.message());
    serializations.increment();
    String version = sha256(bytes);
    if (previous != null && previous.version().equals(version)
        && previous.references().equals(tr.references())) {
      // Same content from a fresh message: keep the old instance (and its bytes) so clients and the
      // next candidate see an unchanged resource.
      return new XdsResource(previous.type(), previous.name(), previous.version(), previous.changedEpoch(),
          previous.any(), tr.message(), previous.references());
    }
    Any any = Any.newBuilder()
        .setTypeUrl(tr.type().typeUrl())
        .setValue(UnsafeByteOperations.unsafeWrap(bytes))
        .build();
    return new XdsResource(tr.type(), tr.name(), version, SnapshotCandidate.UNSEALED, any, tr.message(),
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

  private static String contentHash(
      Map<XdsType, Map<String, XdsResource>> byType, Map<String, List<EndpointSpec>> endpoints) {
    MessageDigest digest = digest();
    for (var typeEntry : byType.entrySet()) {
      for (XdsResource r : typeEntry.getValue().values()) {
        digest.update((typeEntry.getKey().name() + '\0' + r.name() + '\0' + r.version() + '\n')
            .getBytes(StandardCharsets.UTF_8));
      }
    }
    // The endpoint model counts too: a WARMING endpoint that becomes EJECTED changes no xDS resource
    // but is still a state transition worth an epoch.
    new TreeMap<>(endpoints).forEach((cluster, list) -> list.forEach(e -> digest.update(
        (cluster + '\0' + e.key() + '\0' + e.zone() + '\0' + e.weight() + '\0' + e.priority() + '\0'
            + e.state() + '\0' + e.origin() + '\n').getBytes(StandardCharsets.UTF_8))));
    return HexFormat.of().formatHex(digest.digest());
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
