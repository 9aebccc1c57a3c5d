package io.signalbox.controlplane.xds;

import io.grpc.SynchronizationContext;
import io.micrometer.core.instrument.Counter;
import io.signalbox.controlplane.snapshot.XdsType;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One stream's serializing context (grpc-java's {@link SynchronizationContext}, the model of
 * grpc-java's own xDS client) and where its responses leave. Every task of the stream runs in it
 * ({@link #execute}): whichever thread gets there runs every queued task, one at a time and in
 * order, and a thread that finds another running them leaves its task to it. A task queues each
 * response it computes ({@link #later}: encode, stamp, enqueue); the write runs after the task, in
 * the order computed. So two threads that each computed a response (the writer for a release, the
 * event loop for an ACK) never write them in the other order, and nothing runs under a lock.
 */
final class Outbound {

  private final SynchronizationContext context;
  private final Consumer<EncodedResponse.Stamped> sink;
  private final ResponseEncoder encoder;
  private final Map<XdsType, Counter> bytesPushed;

  /**
   * @param context the stream's serializing context; {@code sink} runs in it
   * @param sink writes one response to the stream (the gRPC call's {@code sendMessage})
   * @param bytesPushed counts the bytes each type's responses put on the wire
   */
  Outbound(SynchronizationContext context, Consumer<EncodedResponse.Stamped> sink, ResponseEncoder encoder,
      Map<XdsType, Counter> bytesPushed) {
    this.context = context;
    this.sink = sink;
    this.encoder = encoder;
    this.bytesPushed = bytesPushed;
  }

  /** Queues {@code outgoing} as the response of {@code type} with {@code nonce}; written after the current task. */
  void later(XdsType type, boolean delta, Subscription.Outgoing outgoing, String nonce) {
    EncodedResponse response = delta
        ? encoder.delta(type, outgoing.version(), outgoing.resources(), outgoing.removed(), outgoing.errors())
        : encoder.sotw(type, outgoing.version(), outgoing.resources(), outgoing.errors());
    EncodedResponse.Stamped stamped = response.stamped(nonce);
    bytesPushed.get(type).increment(stamped.size());
    context.executeLater(() -> sink.accept(stamped));
  }

  /** Runs {@code task} in the stream's context, after what is queued. */
  void execute(Runnable task) {
    context.execute(task);
  }

  /** Throws unless the caller is a task of this context: the stream's state is confined to it. */
  void checkInContext() {
    context.throwIfNotInThisSynchronizationContext();
  }
}
