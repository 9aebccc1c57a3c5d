package io.signalbox.controlplane.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.signalbox.controlplane.config.XdsLimitsSettings;
import io.signalbox.controlplane.snapshot.XdsType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The limits no xDS client can exceed, at their defaults, over real gRPC: each client over a limit
 * is refused with a status naming it, and counted.
 */
class XdsLimitsTest {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final String EDS = XdsType.ENDPOINT.typeUrl();
  private static final XdsLimitsSettings LIMITS = XdsLimitsSettings.defaults();

  private final TestResources resources = new TestResources();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private AdsServer server;

  @BeforeEach
  void start() {
    server = AdsServer.start("127.0.0.1", 0, Waves.NONE, Clock.systemUTC(), meters, EdgeSettings.plaintext(),
        refusal -> {});
    server.publish(resources.with("a", List.of(1001)));
  }

  @AfterEach
  void stop() {
    channels.forEach(ManagedChannel::shutdownNow);
    server.close();
  }

  private ManagedChannel channel() {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
        .maxInboundMessageSize(64 * 1024 * 1024).build();
    channels.add(channel);
    return channel;
  }

  private double exceeded(String limit) {
    return meters.counter("signalbox_xds_limit_exceeded", "limit", limit).count();
  }

  /** Records how a stream ended. */
  private static final class Ending<T> implements StreamObserver<T> {
    final AtomicReference<Status> status = new AtomicReference<>();
    final AtomicInteger responses = new AtomicInteger();

    @Override
    public void onNext(T value) {
      responses.incrementAndGet();
    }

    @Override
    public void onError(Throwable t) {
      status.set(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      status.set(Status.OK);
    }
  }

  private static DiscoveryRequest subscribe(String node, String typeUrl, List<String> names) {
    return DiscoveryRequest.newBuilder().setNode(RecordingAdsClient.node(node)).setTypeUrl(typeUrl)
        .addAllResourceNames(names).build();
  }

  @Test
  void thousandsOfStreamsOnOneConnectionAreRefusedPastTheLimit() {
    ManagedChannel channel = channel();
    List<Ending<DiscoveryResponse>> streams = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Ending<DiscoveryResponse> ending = new Ending<>();
      AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(ending)
          .onNext(subscribe("flood-" + i, EDS, List.of("a")));
      streams.add(ending);
    }

    await().atMost(Duration.ofSeconds(120)).until(() -> streams.stream().filter(s -> s.status.get() != null).count()
        == 3000 - LIMITS.maxStreamsPerConnection());
    List<Status> refused = streams.stream().map(s -> s.status.get()).filter(s -> s != null).toList();
    assertThat(refused).allSatisfy(s -> {
      assertThat(s.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(s.getDescription()).isEqualTo("too many xDS streams on one connection: 16 are open "
          + "(xds.limits.maxStreamsPerConnection)");
    });
    await().atMost(Duration.ofSeconds(10)).until(() -> server.clients().size() == LIMITS.maxStreamsPerConnection());
    assertThat(exceeded(StreamGate.MAX_STREAMS_PER_CONNECTION)).isEqualTo(3000 - LIMITS.maxStreamsPerConnection());
  }

  @Test
  void aTenMegabyteRequestIsRefused() {
    Ending<DiscoveryResponse> ending = new Ending<>();
    StreamObserver<DiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel())
        .streamAggregatedResources(ending);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      names.add(String.valueOf((char) ('a' + i)).repeat(1024 * 1024));
    }

    requests.onNext(subscribe("big", EDS, names));

    await().atMost(Duration.ofSeconds(30)).until(() -> ending.status.get() != null);
    assertThat(ending.status.get().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(ending.status.get().getDescription()).contains("exceeds maximum size 4194304");
    assertThat(server.clients()).isEmpty();
  }

  @Test
  void aSubscriptionToAMillionNamesIsRefused() {
    Ending<io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse> ending = new Ending<>();
    StreamObserver<DeltaDiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel())
        .deltaAggregatedResources(ending);
    // A million names do not fit one request (xds.limits.maxRequestBytes), so they come 10,000 at a time.
    for (int chunk = 0; chunk < 100 && ending.status.get() == null; chunk++) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        names.add("cluster-" + (chunk * 10_000 + i));
      }
      DeltaDiscoveryRequest.Builder request = DeltaDiscoveryRequest.newBuilder().setTypeUrl(EDS)
          .addAllResourceNamesSubscribe(names);
      if (chunk == 0) {
        request.setNode(RecordingAdsClient.node("greedy"));
      }
      requests.onNext(request.build());
    }

    await().atMost(Duration.ofSeconds(30)).until(() -> ending.status.get() != null);
    assertThat(ending.status.get().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(ending.status.get().getDescription()).isEqualTo("subscribes to more than 20000 ENDPOINT names "
        + "(xds.limits.maxNamesPerSubscription)");
    await().atMost(Duration.ofSeconds(10)).until(() -> server.clients().isEmpty());
    assertThat(exceeded(StreamGate.MAX_NAMES_PER_SUBSCRIPTION)).isEqualTo(1);
  }

  @Test
  void aStateOfTheWorldRequestNamingTooManyResourcesIsRefused() {
    Ending<DiscoveryResponse> ending = new Ending<>();
    StreamObserver<DiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel())
        .streamAggregatedResources(ending);
    List<String> names = new ArrayList<>();
    for (int i = 0; i <= LIMITS.maxNamesPerSubscription(); i++) {
      names.add("c" + i);
    }

    requests.onNext(subscribe("greedy", CDS, names));

    await().atMost(Duration.ofSeconds(30)).until(() -> ending.status.get() != null);
    assertThat(ending.status.get().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(ending.status.get().getDescription()).isEqualTo("subscribes to more than 20000 CLUSTER names "
        + "(xds.limits.maxNamesPerSubscription)");
  }

  @Test
  void aClientThatKeepsAskingWithoutAnAnswerIsRefused() throws Exception {
    RecordingAdsClient client = new RecordingAdsClient(server.port()).openSotw();
    client.send(subscribe("chatty", EDS, List.of("a")));
    DiscoveryResponse first = client.next();

    // Replies to a response that never was: java-control-plane and the tracker ignore each one.
    int sent = 0;
    while (client.error() == null && sent < 2 * LIMITS.maxPendingRequests()) {
      client.send(DiscoveryRequest.newBuilder().setTypeUrl(EDS).addResourceNames("a")
          .setVersionInfo(first.getVersionInfo()).setResponseNonce("no-such-nonce-" + sent++).build());
    }

    await().atMost(Duration.ofSeconds(30)).until(() -> client.error() != null);
    Status status = Status.fromThrowable(client.error());
    assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(status.getDescription()).isEqualTo("more than 1000 requests without a response in between "
        + "(xds.limits.maxPendingRequests)");
    assertThat(exceeded(StreamGate.MAX_PENDING_REQUESTS)).isEqualTo(1);
    client.close();
  }
}
