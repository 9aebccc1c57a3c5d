package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.util.Objects;
import java.util.Set;

/**
 * One versioned xDS resource of a sealed snapshot. {@code any} is packed once, when the resource
 * first appears with this content, and the same instance is shared by every client and by every
 * later epoch in which the resource is unchanged (encode once).
 *
 * @param version hex SHA-256 of the resource's deterministic serialization
 * @param changedEpoch the epoch in which this exact version first appeared
 * @param message the source message; null when the resource was only restored from storage bytes
 * @param references names of child-type resources this one needs (see {@link TranslatedResource})
 */
public record XdsResource(
    XdsType type,
    String name,
    String version,
    long changedEpoch,
    Any any,
    Message message,
    Set<String> references) {

  public XdsResource {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    references = Set.copyOf(references);
  }

  /**
   * The content as {@code kind}: the source message when this process built it, else parsed from
   * the stored bytes. A snapshot a follower serves, or a new leader takes over, was restored from
   * the store and holds only those: reading {@link #message} alone sees nothing there.
   */
  public <T extends Message> T content(Class<T> kind) {
    if (kind.isInstance(message)) {
      return kind.cast(message);
    }
    try {
      return Objects.requireNonNull(any, () -> type + " '" + name + "' holds no content").unpack(kind);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "stored " + type + " '" + name + "' does not parse as " + kind.getSimpleName(), e);
    }
  }

  /** Whether there is content to read ({@link #content}): false only for a client's claim of what it holds. */
  public boolean hasContent() {
    return message != null || any != null;
  }

  XdsResource withChangedEpoch(long epoch) {
    return new XdsResource(type, name, version, epoch, any, message, references);
  }

  /**
   * This resource with other content ({@code message}) under the same name: versioned by its own
   * serialization, so a version string still names exactly one content, and packed once. For a
   * variant some clients get instead (a DRAINING endpoint sent to Armeria as UNHEALTHY).
   */
  public XdsResource withMessage(Message message) {
    byte[] bytes = SnapshotBuilder.serialize(message);
    Any packed = Any.newBuilder()
        .setTypeUrl(type.typeUrl())
        .setValue(com.google.protobuf.UnsafeByteOperations.unsafeWrap(bytes))
        .build();
    return new XdsResource(type, name, SnapshotBuilder.sha256(bytes), changedEpoch, packed, message, references);
  }

  /** Serialized size of the packed resource, for accounting bytes pushed. */
  public int serializedSize() {
    return any == null ? 0 : any.getSerializedSize();
  }
}
