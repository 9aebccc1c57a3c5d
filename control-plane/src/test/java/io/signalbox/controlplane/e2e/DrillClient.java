package io.signalbox.controlplane.e2e;

import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.NameResolverRegistry;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.grpc.xds.XdsNameResolverProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One grpc-java xDS client of {@code xds:///greeter} with its own node id and its own XdsClient
 * (grpc-xds reads one bootstrap per JVM; {@link XdsNameResolverProvider#createForTest} gives each
 * client a scheme with its own bootstrap), so several clients in one JVM each report load as a
 * process of their own would. {@link #reconnect} replaces its channel: a new XdsClient, new ADS and
 * LRS streams, and a first load report.
 */
final class DrillClient implements AutoCloseable {

  private final String node;
  private final AtomicReference<ManagedChannel> channel = new AtomicReference<>();
  private final AtomicInteger generation = new AtomicInteger();
  private final AtomicLong issued = new AtomicLong();
  private final List<String> failures = new CopyOnWriteArrayList<>();

  DrillClient(String node, int xdsPort) {
    this.node = node;
    channel.set(connect(xdsPort));
  }

  private ManagedChannel connect(int xdsPort) {
    String scheme = node + "-" + generation.incrementAndGet();
    Map<String, ?> bootstrap = Map.of(
        "xds_servers", List.of(Map.of("server_uri", "127.0.0.1:" + xdsPort,
            "channel_creds", List.of(Map.of("type", "insecure")), "server_features", List.of("xds_v3"))),
        "node", Map.of("id", node, "cluster", "e2e", "locality", Map.of("zone", "a")));
    NameResolverRegistry.getDefaultRegistry().register(XdsNameResolverProvider.createForTest(scheme, bootstrap));
    ManagedChannel c = Grpc.newChannelBuilder(scheme + ":///greeter", InsecureChannelCredentials.create()).build();
    // Traffic only once the channel can call: calls buffered while xDS resolves would be a burst.
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> SimpleServiceGrpc.newBlockingStub(c)
        .withDeadlineAfter(5, TimeUnit.SECONDS).unaryRpc(SimpleRequest.getDefaultInstance()) != null);
    return c;
  }

  /** A new channel, ready to call, before the old one goes: callers never see a channel resolving. */
  ManagedChannel prepare(int xdsPort) {
    return connect(xdsPort);
  }

  /** Calls go to {@code next} from now on; the old channel (and its XdsClient) is shut down. */
  void switchTo(ManagedChannel next) {
    channel.getAndSet(next).shutdown();
  }

  void call() {
    issued.incrementAndGet();
    SimpleServiceGrpc.newStub(channel.get()).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.getDefaultInstance(), new StreamObserver<>() {
          @Override
          public void onNext(SimpleResponse value) {}

          @Override
          public void onError(Throwable t) {
            failures.add(Instant.now() + " " + node + ": " + (t instanceof StatusRuntimeException e
                ? e.getStatus().getCode() + ": " + e.getStatus().getDescription() : t.toString()));
          }

          @Override
          public void onCompleted() {}
        });
  }

  long issued() {
    return issued.get();
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  @Override
  public void close() throws InterruptedException {
    channel.get().shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
