package io.signalbox.controlplane.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.util.Objects;
import java.util.Set;

/**
 * One versioned xDS resource, in one of three states, each its own type so that none carries a
 * null for what it lacks (the record this replaced had message fields null in two of them, and
 * two failover bugs came from reading the message of a restored resource):
 *
 * <ul>
 *   <li>{@link Built}: translated by this process; its message and the bytes packed from it once.
 *   <li>{@link Stored}: restored from the store (a follower's epochs, a new leader's, a restart's):
 *       the bytes, parsed on first read ({@link #content}; {@link Any#unpack} keeps what it parsed).
 *   <li>{@link Claimed}: what a client says it holds (delta's {@code initial_resource_versions}) of a
 *       version this process does not have: a name and a version, no content.
 * </ul>
 *
 * A packed {@link Any} is shared by every client and every later epoch in which the resource is
 * unchanged (encode once).
 */
public sealed interface XdsResource permits XdsResource.Built, XdsResource.Stored, XdsResource.Claimed {

  XdsType type();

  String name();

  /** Hex SHA-256 of the resource's deterministic serialization. */
  String version();

  /** The epoch in which this exact version first appeared (0 for a claim). */
  long changedEpoch();

  /** Names of child-type resources this one needs (see {@link TranslatedResource}). */
  Set<String> references();

  /**
   * The packed resource, as clients are sent it and the store keeps it.
   *
   * @throws IllegalStateException for a {@link Claimed} resource, which has no content: a bug to ask
   */
  Any any();

  /** Whether there is content to read ({@link #content}): false only for a client's claim. */
  default boolean hasContent() {
    return !(this instanceof Claimed);
  }

  /**
   * The content as {@code kind}: the built message, or the stored bytes parsed.
   *
   * @throws IllegalStateException for a claim, or stored bytes that are not a {@code kind}
   */
  <T extends Message> T content(Class<T> kind);

  /** Serialized size of the packed resource, for accounting bytes pushed (0 for a claim). */
  default int serializedSize() {
    return hasContent() ? any().getSerializedSize() : 0;
  }

  /** The same resource, first seen in {@code epoch}. */
  XdsResource withChangedEpoch(long epoch);

  /**
   * This resource with other content ({@code message}) under the same name: versioned by its own
   * serialization, so a version string still names exactly one content, and packed once. For a
   * variant some clients get instead (a DRAINING endpoint sent to Armeria as UNHEALTHY).
   */
  default XdsResource withMessage(Message message) {
    byte[] bytes = SnapshotBuilder.serialize(message);
    Any packed = Any.newBuilder()
        .setTypeUrl(type().typeUrl())
        .setValue(com.google.protobuf.UnsafeByteOperations.unsafeWrap(bytes))
        .build();
    return new Built(type(), name(), SnapshotBuilder.sha256(bytes), changedEpoch(), message, packed, references());
  }

  private static <T extends Message> T unpack(Any any, XdsType type, String name, Class<T> kind) {
    try {
      return any.unpack(kind);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("stored " + type + " '" + name + "' does not parse as " + kind.getSimpleName(), e);
    }
  }

  /** Translated by this process: the message, and its bytes packed once. */
  record Built(XdsType type, String name, String version, long changedEpoch, Message message, Any any,
      Set<String> references) implements XdsResource {
    public Built {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(any, "any");
      references = Set.copyOf(references);
    }

    @Override
    public <T extends Message> T content(Class<T> kind) {
      return kind.isInstance(message) ? kind.cast(message) : unpack(any, type, name, kind);
    }

    @Override
    public Built withChangedEpoch(long epoch) {
      return new Built(type, name, version, epoch, message, any, references);
    }
  }

  /** Restored from the store: the packed bytes, parsed when first read. */
  record Stored(XdsType type, String name, String version, long changedEpoch, Any any, Set<String> references)
      implements XdsResource {
    public Stored {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(any, "any");
      references = Set.copyOf(references);
    }

    @Override
    public <T extends Message> T content(Class<T> kind) {
      return unpack(any, type, name, kind);
    }

    @Override
    public Stored withChangedEpoch(long epoch) {
      return new Stored(type, name, version, epoch, any, references);
    }
  }

  /** A client's claim of what it holds: a version this process has no content for. */
  record Claimed(XdsType type, String name, String version) implements XdsResource {
    public Claimed {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(version, "version");
    }

    @Override
    public long changedEpoch() {
      return 0;
    }

    @Override
    public Set<String> references() {
      return Set.of();
    }

    @Override
    public Any any() {
      throw new IllegalStateException(type + " '" + name + "' version " + version
          + " is only what a client claimed to hold: there is no content to send or read");
    }

    @Override
    public <T extends Message> T content(Class<T> kind) {
      throw new IllegalStateException(type + " '" + name + "' version " + version
          + " is only what a client claimed to hold: there is no content to read");
    }

    @Override
    public Claimed withChangedEpoch(long epoch) {
      return this;
    }
  }
}
