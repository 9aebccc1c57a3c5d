package io.signalbox.controlplane.xds;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One read of a stream's context-confined state by another thread ({@link XdsStream#status},
 * {@link XdsStream#holds}): the reader runs a task in the context and then asks whether it ran
 * before it looked ({@link #deferred} false: the task's result is there) or not (another thread is
 * running the stream's tasks and will run this one after them; the reader goes on with what was
 * published before, and the task, when it runs, learns from {@link #doneLate} that its reader did).
 */
final class ContextRead extends AtomicInteger {

  private static final int PENDING = 0;
  private static final int DONE = 1;
  private static final int GAVE_UP = 2;

  /** The task ran; called last in it. */
  void done() {
    compareAndSet(PENDING, DONE);
  }

  /** The task ran; called last in it. @return whether its reader had already gone on without it */
  boolean doneLate() {
    return !compareAndSet(PENDING, DONE);
  }

  /** Called by the reader once {@code execute} returned: whether the task is still to run. */
  boolean deferred() {
    return compareAndSet(PENDING, GAVE_UP);
  }
}
