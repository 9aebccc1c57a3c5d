package io.signalbox.controlplane.xds;

import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.store.StreamEvent;
import io.signalbox.store.StreamEvent.Kind;
import java.time.Instant;
import java.util.List;

/**
 * What the streams did, handed to the history ({@code fleet/HistoryRecorder}) as it happens: each
 * response sent, its ACK or NACK, each stream closing. Called with the stream's lock held, on the
 * connection's event loop or the release writer, so the sink must never block or touch the store:
 * it queues or drops (issue 43: the history must not slow the ADS path).
 */
final class StreamEvents {

  // Set once the recorder exists; until then (and with the history off) nothing is built at all.
  private volatile StreamEventSink sink;

  void to(StreamEventSink sink) {
    this.sink = sink;
  }

  /** A response of {@code sub}'s type went out, built from {@code epoch}. */
  void sent(XdsStream stream, String nodeId, XdsType type, long epoch, String version, Instant at) {
    StreamEventSink s = sink;
    if (s != null) {
      s.offer(StreamEvent.of(at, s.replicaId(), nodeId, stream.id, type.name(), Kind.SENT, epoch, version));
    }
  }

  /** The client ACKed (message null) or NACKed the response built from {@code epoch}. */
  void answered(XdsStream stream, String nodeId, XdsType type, long epoch, String version, String message,
      List<String> refused, Instant at) {
    StreamEventSink s = sink;
    if (s != null) {
      s.offer(message == null
          ? StreamEvent.of(at, s.replicaId(), nodeId, stream.id, type.name(), Kind.ACK, epoch, version)
          : new StreamEvent(at, s.replicaId(), nodeId, stream.id, type.name(), Kind.NACK, epoch, version, message,
              refused));
    }
  }

  void closed(XdsStream stream, String nodeId, Instant at) {
    StreamEventSink s = sink;
    if (s != null) {
      s.offer(StreamEvent.closed(at, s.replicaId(), nodeId, stream.id));
    }
  }
}
