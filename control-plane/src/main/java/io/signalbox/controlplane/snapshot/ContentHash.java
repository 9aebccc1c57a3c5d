package io.signalbox.controlplane.snapshot;

import io.signalbox.model.EndpointField;
import io.signalbox.model.EndpointSpec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A snapshot's content hash: hex SHA-256 over the {@link MerkleTreap#fingerprint() Merkle
 * fingerprints} of every type's resources (name and version of each) and of the endpoint model
 * (every field of every endpoint, cluster by cluster). Equal content gives an equal hash however
 * the snapshot was built, and a change re-hashes only the tree nodes it touched: at 10,000
 * clusters, hashing everything again on every epoch was a large share of an epoch's cost.
 */
final class ContentHash {

  /** A resource counts by its version (the hash of its serialization); the name is the key. */
  static final MerkleTreap.ValueDigest<XdsResource> RESOURCE =
      r -> r.version().getBytes(StandardCharsets.UTF_8);

  /**
   * A cluster's endpoints count with every field, in order. The endpoint model counts too: a
   * WARMING endpoint that becomes EJECTED changes no xDS resource but is still a state transition
   * worth an epoch.
   */
  static final MerkleTreap.ValueDigest<List<EndpointSpec>> ENDPOINTS = ContentHash::endpoints;

  private static final byte[] DOMAIN = "signalbox content v4".getBytes(StandardCharsets.UTF_8);

  private ContentHash() {}

  static String of(Map<XdsType, MerkleTreap<XdsResource>> resources, MerkleTreap<List<EndpointSpec>> endpoints) {
    MessageDigest md = MerkleTreap.newSha256();
    md.update(DOMAIN);
    for (XdsType type : XdsType.ORDERED) {
      MerkleTreap<XdsResource> byName = resources.get(type);
      update(md, type.name());
      md.update(byName == null ? MerkleTreap.empty(RESOURCE).fingerprint() : byName.fingerprint());
    }
    update(md, "endpoints");
    md.update(endpoints.fingerprint());
    return HexFormat.of().formatHex(md.digest());
  }

  private static byte[] endpoints(List<EndpointSpec> list) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * list.size() + 4);
    DataOutputStream out = new DataOutputStream(bytes);
    try {
      out.writeInt(list.size());
      for (EndpointSpec e : list) {
        // Every field, from the one list of them: a field hashed by no one (capacity once was) is a
        // change that makes no epoch. Capacity is sent to no client, but admission reads it from
        // the served epoch.
        for (EndpointField f : EndpointField.ALL) {
          writeValue(out, f.value(e));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory", e);
    }
    // Called while MerkleTreap hashes a node, before that node's own digest starts: the shared
    // instance is free.
    return MerkleTreap.sha256().digest(bytes.toByteArray());
  }

  /** A tag, then the value: no two different field values write the same bytes. */
  private static void writeValue(DataOutputStream out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(0);
    } else if (value instanceof String s) {
      out.writeByte(1);
      write(out, s);
    } else if (value instanceof Integer i) {
      out.writeByte(2);
      out.writeInt(i);
    } else if (value instanceof Enum<?> en) {
      out.writeByte(3);
      write(out, en.name());
    } else if (value instanceof List<?> l) {
      out.writeByte(4);
      out.writeInt(l.size());
      for (Object o : l) {
        write(out, String.valueOf(o));
      }
    } else {
      throw new IllegalArgumentException("an endpoint field of unhashable type: " + value.getClass());
    }
  }

  private static void write(DataOutputStream out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static void update(MessageDigest md, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    md.update(ByteBuffer.allocate(4).putInt(b.length).array());
    md.update(b);
  }
}
