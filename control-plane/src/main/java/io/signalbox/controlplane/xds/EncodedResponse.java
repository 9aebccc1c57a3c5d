package io.signalbox.controlplane.xds;

import com.google.protobuf.CodedOutputStream;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A discovery response (SotW or delta) encoded once, for every stream that is sent the same
 * content: only the nonce differs between streams, so the bytes are kept in two parts, the fields
 * numbered below the nonce's ({@code head}) and those above it ({@code tail}), and each stream's
 * copy is the two parts with its nonce between them. That is exactly protobuf's own serialization
 * of the whole message, which writes fields in number order (nonce is field 5 in both
 * {@code DiscoveryResponse} and {@code DeltaDiscoveryResponse}): a client decodes the same message
 * it would have decoded from a response built and serialized per stream ({@code EncodedResponseTest}).
 *
 * <p>Immutable; {@link #stamped} makes the per-stream value, which the marshaller writes with no
 * copy of the shared parts.
 */
final class EncodedResponse {

  /** The field number of {@code nonce} in {@code DiscoveryResponse} and {@code DeltaDiscoveryResponse}. */
  static final int NONCE_FIELD = 5;

  private final byte[] head;
  private final byte[] tail;

  EncodedResponse(byte[] head, byte[] tail) {
    this.head = head;
    this.tail = tail;
  }

  /** The bytes a stream sends: this response with {@code nonce}, its field encoded here once. */
  Stamped stamped(String nonce) {
    byte[] value = nonce.getBytes(StandardCharsets.UTF_8);
    if (value.length == 0) {
      return new Stamped(this, value);
    }
    byte[] field = new byte[CodedOutputStream.computeTagSize(NONCE_FIELD)
        + CodedOutputStream.computeUInt32SizeNoTag(value.length) + value.length];
    CodedOutputStream coded = CodedOutputStream.newInstance(field);
    try {
      coded.writeByteArray(NONCE_FIELD, value);
    } catch (IOException e) {
      throw new IllegalStateException("a nonce field does not fit the bytes computed for it", e);
    }
    coded.checkNoSpaceLeft();
    return new Stamped(this, field);
  }

  /** What this response holds in memory, for the encoder's bound. */
  int weight() {
    return head.length + tail.length;
  }

  /** One stream's copy: the shared response and that stream's nonce field (tag, length, value). */
  static final class Stamped {
    private final EncodedResponse response;
    private final byte[] nonceField;

    private Stamped(EncodedResponse response, byte[] nonceField) {
      this.response = response;
      this.nonceField = nonceField;
    }

    int size() {
      return response.head.length + nonceField.length + response.tail.length;
    }

    void writeTo(OutputStream out) throws IOException {
      out.write(response.head);
      out.write(nonceField);
      out.write(response.tail);
    }

    /** The whole message, as a client receives it (tests and the in-process driver decode it). */
    byte[] toByteArray() {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(size());
      try {
        writeTo(out);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return out.toByteArray();
    }
  }

  /**
   * Writes a {@link Stamped} response as it is: grpc-java's framer drains a {@link Drainable} stream
   * straight into its transport buffers, so the shared parts are copied once, into the frame.
   */
  static final MethodDescriptor.Marshaller<Stamped> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(Stamped value) {
      return new Bytes(value);
    }

    @Override
    public Stamped parse(InputStream stream) {
      throw new UnsupportedOperationException("a server's responses are only written, never read");
    }
  };

  /** The stream gRPC reads a response from: drained whole, or read byte by byte as a fallback. */
  private static final class Bytes extends InputStream implements Drainable, KnownLength {
    private Stamped value;
    private java.io.ByteArrayInputStream fallback;

    Bytes(Stamped value) {
      this.value = value;
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      if (value == null) {
        return fallback == null ? 0 : (int) fallback.transferTo(target);
      }
      int size = value.size();
      value.writeTo(target);
      value = null;
      return size;
    }

    @Override
    public int available() {
      if (value != null) {
        return value.size();
      }
      return fallback == null ? 0 : fallback.available();
    }

    private java.io.ByteArrayInputStream fallback() {
      if (value != null) {
        fallback = new java.io.ByteArrayInputStream(value.toByteArray());
        value = null;
      }
      return fallback == null ? new java.io.ByteArrayInputStream(new byte[0]) : fallback;
    }

    @Override
    public int read() {
      return fallback().read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
      return fallback().read(b, off, len);
    }
  }
}
