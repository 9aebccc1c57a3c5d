package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed xDS requests on ADS streams of their own, while a grpc-xds client calls through the
 * server: each stream is either refused with its status (a limit, a node that changed) or keeps
 * being served as if the bad request had not been sent (a later subscription is answered; the
 * server records no NACK and no ACK of a version it never sent); the published epoch stays, and no
 * RPC of the grpc-xds client fails.
 *
 * <p>{@link #sotw()} and {@link #delta()} are hand-written; {@link #generated()} are requests
 * with stale nonces and arbitrary type URLs, names and versions, drawn by jqwik with a fixed seed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadXdsRequestsIT {

  static final long SEED = 29_08_04L;
  static final String CDS = XdsType.CLUSTER.typeUrl();
  static final String EDS = XdsType.ENDPOINT.typeUrl();
  static final String LDS = XdsType.LISTENER.typeUrl();
  static final String RDS = XdsType.ROUTE.typeUrl();

  @TempDir static Path dir;
  static SteadySignalbox sb;
  static int streams;

  @BeforeAll
  static void start() throws Exception {
    sb = SteadySignalbox.start(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (sb != null) {
      sb.close();
    }
  }

  /** The stream must be refused with one of {@code codes} and a description holding {@code part}; null: served on. */
  record Refused(java.util.Set<Status.Code> codes, String part) {
    Refused(Status.Code code, String part) {
      this(java.util.Set.of(code), part);
    }
  }

  /**
   * A SotW case: after a valid CDS wildcard request was answered with {@code first}, the requests
   * {@code bad} makes from it are sent on the same stream.
   */
  record Sotw(String name, Function<DiscoveryResponse, List<DiscoveryRequest>> bad, Refused refused) {
    @Override
    public String toString() {
      return name;
    }
  }

  static DiscoveryRequest.Builder request(String type, String... names) {
    return DiscoveryRequest.newBuilder().setTypeUrl(type).addAllResourceNames(List.of(names));
  }

  static DiscoveryRequest ackOf(DiscoveryResponse r) {
    return request(r.getTypeUrl()).setVersionInfo(r.getVersionInfo()).setResponseNonce(r.getNonce()).build();
  }

  static com.google.rpc.Status error(String message) {
    return com.google.rpc.Status.newBuilder().setCode(3).setMessage(message).build();
  }

  private static Sotw served(String name, Function<DiscoveryResponse, List<DiscoveryRequest>> bad) {
    return new Sotw(name, bad, null);
  }

  static List<Sotw> sotw() {
    List<String> many = IntStream.range(0, 25_000).mapToObj(i -> "cluster-" + i).toList();
    String mib = "n".repeat(1 << 20);
    return List.of(
        served("an unknown type URL", r -> List.of(request("type.googleapis.com/signalbox.Nothing", "x").build())),
        new Sotw("an empty type URL", r -> List.of(request("", "greeter").build()),
            new Refused(Status.Code.INVALID_ARGUMENT, "the request has no type_url")),
        served("a v2 type URL", r -> List.of(request("type.googleapis.com/envoy.api.v2.Cluster").build())),
        served("a 64 KiB type URL", r -> List.of(request("type.googleapis.com/" + "t".repeat(64 << 10)).build())),
        served("a 1 MiB resource name", r -> List.of(request(EDS, mib).build())),
        served("names with NUL, newline and escape", r -> List.of(request(EDS, "gre\u0000eter", "a\nb", "\u001b[31m",
            "", " ", "../../etc/passwd").build())),
        served("a type URL of a resource Signalbox never serves", r -> List.of(
            request("type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret", "cert").build())),
        served("an ACK with a 1 MiB nonce", r -> List.of(ackOf(r).toBuilder().setResponseNonce(mib).build())),
        served("a NACK for a nonce never sent", r -> List.of(ackOf(r).toBuilder().setResponseNonce("never-sent")
            .setErrorDetail(error("invented")).build())),
        served("a NACK with a 100 KiB message for a nonce never sent", r -> List.of(ackOf(r).toBuilder()
            .setResponseNonce("nope").setErrorDetail(error("m".repeat(100 << 10))).build())),
        served("an ACK of a version never sent", r -> List.of(ackOf(r).toBuilder().setVersionInfo("999999").build())),
        served("an ACK whose version is garbage", r -> List.of(ackOf(r).toBuilder().setVersionInfo("\u0000v\uffff")
            .build())),
        served("an ACK whose version is negative", r -> List.of(ackOf(r).toBuilder().setVersionInfo("-5").build())),
        served("an ACK of another type's nonce", r -> List.of(request(LDS, "greeter").setResponseNonce(r.getNonce())
            .setVersionInfo(r.getVersionInfo()).build())),
        served("the same ACK 200 times", r -> Collections.nCopies(200, ackOf(r))),
        served("a NACK whose status code is not a code", r -> List.of(ackOf(r).toBuilder().setResponseNonce("x")
            .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(9999).setMessage("?")).build())),
        served("a request that claims a version from the future with no nonce", r -> List.of(request(EDS, "greeter")
            .setVersionInfo("18446744073709551615").build())),
        new Sotw("a node that changes mid-stream", r -> List.of(request(CDS).setNode(RecordingAdsClient.node("other"))
            .setVersionInfo(r.getVersionInfo()).setResponseNonce(r.getNonce()).build()),
            new Refused(Status.Code.INVALID_ARGUMENT, "belongs to node")),
        new Sotw("25,000 names (over maxNamesPerSubscription)", r -> List.of(request(EDS).addAllResourceNames(many)
            .build()), new Refused(Status.Code.RESOURCE_EXHAUSTED, "maxNamesPerSubscription")),
        new Sotw("a 5 MiB request (over maxRequestBytes)", r -> List.of(request(EDS, "x".repeat(5 << 20)).build()),
            // gRPC refuses the message before Signalbox sees it, resetting the stream (docs/configuration.md).
            new Refused(java.util.Set.of(Status.Code.RESOURCE_EXHAUSTED, Status.Code.CANCELLED), "")));
  }

  /** Stale-nonce requests with arbitrary type URLs, names, versions and NACKs: all to be ignored. */
  static List<Sotw> generated() {
    Arbitrary<String> type = Arbitraries.oneOf(Arbitraries.of(CDS, EDS, LDS, RDS),
        Arbitraries.strings().ofMinLength(0).ofMaxLength(80).map(s -> "type.googleapis.com/" + s));
    Arbitrary<List<String>> names = Arbitraries.strings().ofMinLength(0).ofMaxLength(200).list().ofMaxSize(6);
    Arbitrary<String> nonce = Arbitraries.strings().ofMinLength(1).ofMaxLength(64).filter(n -> !n.matches("\\d+"));
    Arbitrary<String> version = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(30),
        Arbitraries.longs().map(l -> Long.toString(l)));
    Arbitrary<String> nack = Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.strings().ofMaxLength(300));
    return Mutations.distinct(Combinators.combine(type, names, nonce, version, nack).as((t, n, no, v, e) -> {
      DiscoveryRequest.Builder r = request(t).addAllResourceNames(n).setResponseNonce(no).setVersionInfo(v);
      if (!e.isEmpty()) {
        r.setErrorDetail(error(e));
      }
      DiscoveryRequest built = r.build();
      String shown = ("stale nonce: type " + t + ", " + n.size() + " names, version " + v + (e.isEmpty() ? "" : ", NACK"))
          .replaceAll("[^\\x20-\\x7e]", "?");
      return served(shown.length() > 120 ? shown.substring(0, 120) : shown, first -> List.of(built));
    }), SEED, 25, Sotw::name);
  }

  @Order(1)
  @ParameterizedTest(name = "{0}")
  @MethodSource("sotw")
  void refusesOrIgnoresAHandWrittenSotwRequest(Sotw c) throws Exception {
    refusesOrIgnoresABadSotwRequest(c);
  }

  @Order(2)
  @ParameterizedTest(name = "{0}")
  @MethodSource("generated")
  void ignoresAGeneratedStaleRequest(Sotw c) throws Exception {
    refusesOrIgnoresABadSotwRequest(c);
  }

  private static void refusesOrIgnoresABadSotwRequest(Sotw c) throws Exception {
    SteadySignalbox.Round round = sb.round(c.name());
    String node = "adversary-" + (++streams);
    try (RecordingAdsClient client = new RecordingAdsClient(sb.server.xdsPort()).openSotw()) {
      client.send(request(CDS).setNode(RecordingAdsClient.node(node)).build());
      DiscoveryResponse first = client.next();
      client.send(ackOf(first));
      for (DiscoveryRequest bad : c.bad().apply(first)) {
        client.send(bad);
      }
      if (c.refused() != null) {
        awaitRefused(client::error, c.refused(), c.name());
      } else {
        // Served on: a new subscription after the bad request is answered on the same stream.
        client.send(request(LDS, "greeter").build());
        await().atMost(Duration.ofSeconds(20)).until(() -> client.error() != null
            || client.sotw.stream().anyMatch(r -> r.getTypeUrl().equals(LDS)));
        assertThat(client.error()).as("%s: the stream ended", c.name()).isNull();
        assertNoFalseAckOrNack(node, round);
      }
    }
    round.assertNothingChanged();
  }

  /** A delta case: after a subscription to greeter's endpoints was answered, {@code bad} is sent. */
  record Delta(String name, Function<DeltaDiscoveryResponse, List<DeltaDiscoveryRequest>> bad, Refused refused) {
    @Override
    public String toString() {
      return "delta: " + name;
    }
  }

  static DeltaDiscoveryRequest.Builder delta(String type) {
    return DeltaDiscoveryRequest.newBuilder().setTypeUrl(type);
  }

  static List<Delta> delta() {
    List<String> half = IntStream.range(0, 12_500).mapToObj(i -> "c-" + i).toList();
    List<String> other = IntStream.range(12_500, 25_000).mapToObj(i -> "c-" + i).toList();
    return List.of(
        new Delta("an unknown type URL", r -> List.of(delta("type.googleapis.com/signalbox.Nothing")
            .addResourceNamesSubscribe("x").build()), null),
        new Delta("an empty type URL", r -> List.of(delta("").addResourceNamesSubscribe("greeter").build()),
            new Refused(Status.Code.INVALID_ARGUMENT, "the request has no type_url")),
        new Delta("unsubscribing names never subscribed", r -> List.of(delta(EDS)
            .addAllResourceNamesUnsubscribe(List.of("nope", "", "\u0000")).build()), null),
        new Delta("subscribe and unsubscribe one name at once", r -> List.of(delta(EDS).addResourceNamesSubscribe("x")
            .addResourceNamesUnsubscribe("x").build()), null),
        new Delta("a NACK for a nonce never sent", r -> List.of(delta(EDS).setResponseNonce("never-sent")
            .setErrorDetail(error("invented")).build()), null),
        new Delta("an ACK with a 1 MiB nonce", r -> List.of(delta(EDS).setResponseNonce("n".repeat(1 << 20)).build()),
            null),
        new Delta("initial versions of garbage on a new type", r -> List.of(delta(CDS).putInitialResourceVersions(
            "greeter", "\u0000not-a-version").putInitialResourceVersions("", "").build()), null),
        new Delta("wildcard plus a 1 MiB name", r -> List.of(delta(CDS).addResourceNamesSubscribe("*")
            .addResourceNamesSubscribe("w".repeat(1 << 20)).build()), null),
        new Delta("25,000 names over two requests (over maxNamesPerSubscription)", r -> List.of(
            delta(EDS).addAllResourceNamesSubscribe(half).build(), delta(EDS).addAllResourceNamesSubscribe(other).build()),
            new Refused(Status.Code.RESOURCE_EXHAUSTED, "maxNamesPerSubscription")),
        new Delta("a node that changes mid-stream", r -> List.of(delta(EDS).setNode(RecordingAdsClient.node("other"))
            .addResourceNamesSubscribe("y").build()), new Refused(Status.Code.INVALID_ARGUMENT, "belongs to node")));
  }

  @Order(3)
  @ParameterizedTest(name = "{0}")
  @MethodSource("delta")
  void refusesOrIgnoresABadDeltaRequest(Delta c) throws Exception {
    SteadySignalbox.Round round = sb.round(c.toString());
    String node = "adversary-" + (++streams);
    try (RecordingAdsClient client = new RecordingAdsClient(sb.server.xdsPort()).openDelta()) {
      client.send(delta(EDS).setNode(RecordingAdsClient.node(node)).addResourceNamesSubscribe("greeter").build());
      DeltaDiscoveryResponse first = client.next();
      client.send(delta(EDS).setResponseNonce(first.getNonce()).build());
      for (DeltaDiscoveryRequest bad : c.bad().apply(first)) {
        client.send(bad);
      }
      if (c.refused() != null) {
        awaitRefused(client::error, c.refused(), c.toString());
      } else {
        client.send(delta(LDS).addResourceNamesSubscribe("greeter").build());
        await().atMost(Duration.ofSeconds(20)).until(() -> client.error() != null
            || client.delta.stream().anyMatch(r -> r.getTypeUrl().equals(LDS)));
        assertThat(client.error()).as("%s: the stream ended", c).isNull();
        assertNoFalseAckOrNack(node, round);
      }
    }
    round.assertNothingChanged();
  }

  /** One stream more than maxStreamsPerConnection (16) on one connection: the extra one is refused. */
  @Order(4)
  @Test
  void refusesTheSeventeenthStreamOnOneConnection() throws Exception {
    SteadySignalbox.Round round = sb.round("17 streams on one connection");
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", sb.server.xdsPort()).usePlaintext().build();
    List<RecordingAdsClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < 17; i++) {
        RecordingAdsClient client = new RecordingAdsClient(channel).openSotw();
        client.send(request(CDS).setNode(RecordingAdsClient.node("crowd-" + i)).build());
        clients.add(client);
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> clients.stream().filter(c -> c.error() != null).count() == 1
          && clients.stream().filter(c -> !c.sotw.isEmpty()).count() == 16);
      RecordingAdsClient refused = clients.stream().filter(c -> c.error() != null).findFirst().orElseThrow();
      assertThat(Status.fromThrowable(refused.error()).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(Status.fromThrowable(refused.error()).getDescription()).contains("maxStreamsPerConnection");
    } finally {
      channel.shutdownNow().awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    }
    round.assertNothingChanged();
  }

  private static void awaitRefused(java.util.function.Supplier<Throwable> error, Refused refused, String name) {
    await().atMost(Duration.ofSeconds(20)).until(() -> error.get() != null);
    Status status = Status.fromThrowable(error.get());
    assertThat(status.getCode()).as("%s: %s", name, status).isIn(refused.codes());
    assertThat(String.valueOf(status.getDescription())).as("%s: %s", name, status).contains(refused.part());
    assertThat(error.get()).isInstanceOf(StatusRuntimeException.class);
  }

  /**
   * The server's view of the adversary ({@code GET /api/v1/clients}): no type with a NACK (none
   * was sent for a nonce it sent), and no ACK of an epoch newer than it published.
   */
  private static void assertNoFalseAckOrNack(String node, SteadySignalbox.Round round) {
    JsonNode clients = sb.admin.getJson("/api/v1/clients?q=" + node);
    assertThat(clients).as("%s: the server lists the stream", round.name).isNotEmpty();
    for (JsonNode client : clients) {
      client.path("types").fields().forEachRemaining(t -> {
        assertThat(t.getValue().path("nack").isNull() || t.getValue().path("nack").isMissingNode())
            .as("%s: %s recorded a NACK: %s", round.name, t.getKey(), t.getValue()).isTrue();
        assertThat(t.getValue().path("ackedEpoch").asLong()).as("%s: %s acked epoch", round.name, t.getKey())
            .isLessThanOrEqualTo(round.epoch);
      });
    }
  }
}
