package io.signalbox.bench.jmh;

import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.XdsServer;
import java.time.Duration;
import java.util.List;

/**
 * An xDS server with no clients that records what the reconciler publishes, so a benchmark can
 * wait for an epoch to come out of the single writer without a gRPC stack in the measurement.
 */
final class RecordingXdsServer implements XdsServer {

  // Guards `current`; waiters in awaitEpoch wait on it.
  private final Object lock = new Object();
  private Snapshot current;

  @Override
  public int port() {
    return 0;
  }

  @Override
  public void publish(Snapshot snapshot) {
    release(0, snapshot);
  }

  @Override
  public void release(int wave, Snapshot snapshot) {
    synchronized (lock) {
      if (current != null && snapshot.epoch() <= current.epoch()) {
        throw new IllegalStateException("epoch " + snapshot.epoch() + " published after " + current.epoch());
      }
      current = snapshot;
      lock.notifyAll();
    }
  }

  @Override
  public Snapshot releasedTo(int wave) {
    return current();
  }

  @Override
  public Snapshot current() {
    synchronized (lock) {
      return current;
    }
  }

  /** Blocks until epoch {@code epoch} (or a newer one) is published; fails after {@code timeout}. */
  Snapshot awaitEpoch(long epoch, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (current == null || current.epoch() < epoch) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("epoch " + epoch + " not published within " + timeout + "; current "
              + (current == null ? "none" : current.epoch()));
        }
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return current;
    }
  }

  @Override
  public List<ClientStatus> clients() {
    return List.of();
  }

  @Override
  public List<ClientStatus> holders(XdsType type, String name) {
    return List.of();
  }

  @Override
  public void close() {}
}
