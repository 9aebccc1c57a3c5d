package io.signalbox.controlplane.xds;

import io.signalbox.store.StreamEvent;

/**
 * Takes what the streams did off the stream threads (see {@link AdsServer#recordStreamEvents}).
 * Called with a stream's lock held, on a connection's event loop or the release writer.
 */
public interface StreamEventSink {

  /** Queues {@code event}, or drops it (and counts the drop) when the queue is full; never blocks. */
  void offer(StreamEvent event);

  /** Which replica the events are of. */
  String replicaId();
}
