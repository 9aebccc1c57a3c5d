package io.signalbox.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One change the fleet is waiting for: which endpoint must carry which weight, and when each client
 * first held it. Written by the clients' event-loop threads, read by the driver.
 */
final class ChangeTracker {

  final String cluster;
  final String address;
  final int port;
  final int weight;
  /** When the change was written (System.nanoTime), set by whoever writes it. */
  volatile long startedAt;
  private final AtomicLongArray seenAtNanos;
  private final CountDownLatch pending;

  ChangeTracker(String cluster, String address, int port, int weight, int clients) {
    this.cluster = cluster;
    this.address = address;
    this.port = port;
    this.weight = weight;
    this.seenAtNanos = new AtomicLongArray(clients);
    this.pending = new CountDownLatch(clients);
  }

  /** Records that {@code client} holds the new content now; later sightings keep the first time. */
  void seen(int client, long nanos) {
    if (seenAtNanos.compareAndSet(client, 0, nanos)) {
      pending.countDown();
    }
  }

  boolean awaitAll(long timeoutMillis) throws InterruptedException {
    return pending.await(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  long unconverged() {
    return pending.getCount();
  }

  /** When {@code client} first held the new content, or 0 if it never did. */
  long seenAt(int client) {
    return seenAtNanos.get(client);
  }
}
