package io.signalbox.controlplane.xds;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.signalbox.controlplane.snapshot.XdsType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that go over the xDS server's limits again and again, run as a process of its own (as a
 * remote attacker is): thousands of streams on one connection, 10 MB requests, a subscription to a
 * million names. Each round is refused; the count of refusals is written to a file for the test.
 *
 * <p>{@code java ... Abusers <port> <refusals file>}; stops when killed.
 */
public final class Abusers {

  static final String EDS = XdsType.ENDPOINT.typeUrl();
  static final int FLOOD_STREAMS = 2000;

  private final int port;
  private final AtomicLong refusals = new AtomicLong();

  private Abusers(int port) {
    this.port = port;
  }

  public static void main(String[] args) throws Exception {
    Abusers abusers = new Abusers(Integer.parseInt(args[0]));
    Path report = Path.of(args[1]);
    List<Thread> threads = List.of(
        abusers.start("abuse-streams", abusers::streamFlood),
        abusers.start("abuse-big-request", abusers::bigRequest),
        abusers.start("abuse-names", abusers::millionNames));
    while (true) {
      TimeUnit.MILLISECONDS.sleep(100);
      write(report, Long.toString(abusers.refusals.get()));
    }
  }

  private static void write(Path file, String content) {
    try {
      Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".refusals", ".tmp");
      Files.writeString(tmp, content);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Thread start(String name, Runnable attack) {
    Thread t = new Thread(() -> {
      while (true) {
        attack.run();
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private ManagedChannel channel() {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  private <T> StreamObserver<T> counting(CountDownLatch done) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {}

      @Override
      public void onError(Throwable t) {
        refusals.incrementAndGet();
        done.countDown();
      }

      @Override
      public void onCompleted() {
        done.countDown();
      }
    };
  }

  private void streamFlood() {
    ManagedChannel channel = channel();
    CountDownLatch done = new CountDownLatch(FLOOD_STREAMS - 16);
    for (int i = 0; i < FLOOD_STREAMS; i++) {
      AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(this.<DiscoveryResponse>counting(done))
          .onNext(DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("flood-" + i)).setTypeUrl(EDS)
              .addResourceNames("a").build());
    }
    await(done);
    channel.shutdownNow();
  }

  private static final DiscoveryRequest BIG = DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node("big"))
      .setTypeUrl(EDS).addResourceNames("x".repeat(10 * 1024 * 1024)).build();

  private void bigRequest() {
    ManagedChannel channel = channel();
    CountDownLatch done = new CountDownLatch(1);
    AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(this.<DiscoveryResponse>counting(done))
        .onNext(BIG);
    await(done);
    channel.shutdownNow();
  }

  private static final List<DeltaDiscoveryRequest> MILLION_NAMES = new ArrayList<>();

  static {
    for (int chunk = 0; chunk < 100; chunk++) {
      List<String> names = new ArrayList<>(10_000);
      for (int i = 0; i < 10_000; i++) {
        names.add("cluster-" + (chunk * 10_000 + i));
      }
      DeltaDiscoveryRequest.Builder request = DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS)
          .addAllResourceNamesSubscribe(names);
      if (chunk == 0) {
        request.setNode(RecordingAdsClient.node("greedy"));
      }
      MILLION_NAMES.add(request.build());
    }
  }

  private void millionNames() {
    ManagedChannel channel = channel();
    CountDownLatch done = new CountDownLatch(1);
    StreamObserver<DeltaDiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel)
        .deltaAggregatedResources(this.<DeltaDiscoveryResponse>counting(done));
    for (int chunk = 0; chunk < MILLION_NAMES.size() && done.getCount() > 0; chunk++) {
      requests.onNext(MILLION_NAMES.get(chunk));
    }
    await(done);
    channel.shutdownNow();
  }

  private static void await(CountDownLatch done) {
    try {
      done.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
