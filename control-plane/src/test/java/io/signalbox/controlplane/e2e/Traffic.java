package io.signalbox.controlplane.e2e;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A grpc-xds client ({@code xds:///greeter}, from {@link GrpcXdsClient})
 * calling the {@link Backends} without pause on a background thread (or at a fixed rate), the way a
 * service keeps calling while its control plane has trouble: every failed RPC is kept, with its status.
 */
final class Traffic implements AutoCloseable {

  private final ManagedChannel channel;
  private final AtomicLong succeeded = new AtomicLong();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private volatile boolean running;
  private Thread caller;
  private ScheduledExecutorService schedule;

  /** @param channel a grpc-xds channel ({@link GrpcXdsClient#open}); closed with this */
  Traffic(ManagedChannel channel) {
    this.channel = channel;
  }

  /** For calls other than the unary one {@link #call} makes. */
  Channel channel() {
    return channel;
  }

  /** One RPC; the name of the backend that answered. */
  String call() {
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  /** The backends that answered {@code n} RPCs. */
  Set<String> calls(int n) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      seen.add(call());
    }
    return seen;
  }

  /** From now on, one RPC every few milliseconds in the background, each counted. */
  void startCalling() {
    running = true;
    caller = new Thread(() -> {
      while (running) {
        try {
          call();
          succeeded.incrementAndGet();
        } catch (StatusRuntimeException e) {
          failures.add(java.time.Instant.now() + " " + e.getStatus());
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
    }, "traffic");
    caller.setDaemon(true);
    caller.start();
  }

  /** Stops the background calls, if any; the channel stays open. */
  void stopCalling() throws InterruptedException {
    if (schedule != null) {
      schedule.shutdownNow();
    }
    running = false;
    if (caller != null) {
      caller.join(TimeUnit.SECONDS.toMillis(10));
    }
  }

  /**
   * From now on, one RPC every {@code period}, each sent without waiting for the ones before
   * (asynchronous, at a fixed rate): demand that neither latency nor dropped calls change, for
   * tests that read demand from load reports. Counted as {@link #startCalling} counts.
   */
  void startCallingEvery(Duration period) {
    schedule = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "traffic");
      t.setDaemon(true);
      return t;
    });
    schedule.scheduleAtFixedRate(() -> SimpleServiceGrpc.newStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance(), new StreamObserver<>() {
          @Override
          public void onNext(SimpleResponse value) {
            succeeded.incrementAndGet();
          }

          @Override
          public void onError(Throwable t) {
            failures.add(java.time.Instant.now() + " " + Status.fromThrowable(t));
          }

          @Override
          public void onCompleted() {}
        }), 0, period.toNanos(), TimeUnit.NANOSECONDS);
  }

  long succeeded() {
    return succeeded.get();
  }

  /** Every RPC of the background caller that failed, with when and its status. */
  List<String> failures() {
    return List.copyOf(failures);
  }

  @Override
  public void close() throws InterruptedException {
    stopCalling();
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
