package io.signalbox.source;

import java.util.function.Consumer;

/**
 * A producer of endpoint state. Implementations publish their full state to the consumer whenever it
 * changes (and once at start); the consumer must be cheap and thread-safe (the reconciler's
 * latest-wins slot).
 */
public interface EndpointSource extends AutoCloseable {
  String id();

  void start(Consumer<SourceState> publish);

  @Override
  void close();
}
