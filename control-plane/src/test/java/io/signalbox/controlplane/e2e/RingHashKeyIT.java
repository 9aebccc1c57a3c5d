package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stable ring-hash keys (issue 44, gRFC A76) as grpc-java's grpc-xds 1.85.1 meets them: two
 * RING_HASH clusters of the same six backends, one placing them by address (the default), one by
 * their declared {@code hashKey}, each hashed on the {@code x-user} header. One backend is then
 * replaced by one with the same name and key on a new port.
 *
 * <p>grpc-java has no A76 endpoint keys (its ring hashes {@code address_index}, in 1.85.1 and in
 * its main branch as of this writing; only the request-key half, {@code
 * GRPC_EXPERIMENTAL_RING_HASH_SET_REQUEST_HASH_KEY}, exists), so the keyed cluster's users move
 * exactly as the address-placed cluster's do. That is the cell docs/traffic-policy.md records;
 * this test fails the day grpc-java starts reading {@code envoy.lb/hash_key}, and the cell must
 * then say {@code applied}. What is sent is {@code AssignmentTranslationTest}'s.
 */
class RingHashKeyIT {

  private static final List<String> PODS = IntStream.rangeClosed(1, 6).mapToObj(i -> "pod-" + i).toList();
  private static final int USERS = 300;

  @TempDir static Path dir;
  static Workspace ws;
  static TrafficBackends backends;
  static SignalboxServer server;
  static GrpcXdsClient client;

  @BeforeAll
  static void start() throws Exception {
    ws = new Workspace(dir);
    backends = new TrafficBackends().answering(PODS.toArray(String[]::new));
    int xdsPort = Workspace.freePort();
    writeEndpoints();
    Path config = ws.write("signalbox.yaml", """
        xds: { port: %d }
        rollout: { settle: 1s }
        admin: { port: 0 }
        store: { url: memory }
        sources:
          files: [ ./pods.yaml ]
        reconcile: { debounce: 50ms, maxDelay: 500ms }
        clusterDefaults: { massRemovalPercent: 100 }
        listeners:
          - { name: keyed, apiListener: true, routeConfig: keyed }
          - { name: addressed, apiListener: true, routeConfig: addressed }
        routeConfigs:
          - name: keyed
            virtualHosts:
              - { name: keyed, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: keyed, hashPolicy: [ { header: x-user } ] } ] }
          - name: addressed
            virtualHosts:
              - { name: addressed, domains: [ "*" ], routes: [ { match: { prefix: "" }, cluster: addressed, hashPolicy: [ { header: x-user } ] } ] }
        clusters:
          - { name: keyed, lbPolicy: RING_HASH, ringHash: { minimumRingSize: 1024, maximumRingSize: 4096, hashKeySource: HASH_KEY } }
          - { name: addressed, lbPolicy: RING_HASH, ringHash: { minimumRingSize: 1024, maximumRingSize: 4096 } }
        """.formatted(xdsPort));
    server = RunningSignalbox.serve(config);
    client = GrpcXdsClient.bootstrap(xdsPort, "grpc-ring-keys");
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  /** Both clusters list every pod at its current port, each with its name as its hash key. */
  private static void writeEndpoints() throws Exception {
    String endpoints = PODS.stream().map(p -> "    - { address: 127.0.0.1, port: " + backends.port(p)
        + ", hashKey: " + p + " }\n").collect(Collectors.joining());
    ws.write("pods.yaml", "clusters:\n  keyed:\n" + endpoints + "  addressed:\n" + endpoints);
  }

  private static String call(String listener, String user) {
    ManagedChannel channel = client.channel(listener);
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), user);
    return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .unaryRpc(SimpleRequest.getDefaultInstance()).getResponseMessage();
  }

  private static Map<String, String> owners(String listener) {
    Map<String, String> owner = new LinkedHashMap<>();
    for (int u = 0; u < USERS; u++) {
      owner.put("user-" + u, call(listener, "user-" + u));
    }
    return owner;
  }

  private static Set<String> usersOf(Map<String, String> owners, String pod) {
    return owners.entrySet().stream().filter(e -> e.getValue().equals(pod)).map(Map.Entry::getKey)
        .collect(Collectors.toSet());
  }

  @Test
  void grpcJavaPlacesAReplacedPodByItsNewAddressWhateverItsHashKey() throws Exception {
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> call("keyed", "u") != null && call("addressed", "u") != null);
    Map<String, String> keyedBefore = owners("keyed");
    Map<String, String> addressedBefore = owners("addressed");
    // Same endpoints, same weights: a client that ignores the keys builds the same ring for both.
    assertThat(keyedBefore).isEqualTo(addressedBefore);
    assertThat(Set.copyOf(keyedBefore.values())).hasSizeGreaterThanOrEqualTo(4);
    String replaced = keyedBefore.get("user-0");
    Set<String> itsUsers = usersOf(keyedBefore, replaced);

    backends.replace(replaced);
    writeEndpoints();
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
        Set.copyOf(owners("keyed").values()).contains(replaced) && Set.copyOf(owners("addressed").values())
            .contains(replaced));
    Map<String, String> keyedAfter = owners("keyed");
    Map<String, String> addressedAfter = owners("addressed");

    Set<String> movedByAddress = itsUsers.stream().filter(u -> !addressedAfter.get(u).equals(replaced))
        .collect(Collectors.toSet());
    Set<String> movedByKey = itsUsers.stream().filter(u -> !keyedAfter.get(u).equals(replaced))
        .collect(Collectors.toSet());
    System.out.printf("ring keys, grpc-java: %d users on %s; after its replacement %d moved by address, %d with"
        + " hash keys%n", itsUsers.size(), replaced, movedByAddress.size(), movedByKey.size());
    assertThat(movedByAddress).as("the default (address) moves the replaced pod's users").isNotEmpty();
    assertThat(keyedAfter).as("grpc-java ignores envoy.lb hash_key: the keyed ring is the address ring")
        .isEqualTo(addressedAfter);
  }
}
