package io.signalbox.controlplane.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.AnsweringAdsClient;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.model.EndpointState;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.embedded.PostgresExtension;
import io.signalbox.store.StoreSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas in one JVM on one PostgreSQL database: one leads, the others serve exactly what it
 * committed (the same version strings), any replica takes operator writes and lists every
 * replica's clients, and when the leader goes another leads and epochs go on. Processes killed
 * with SIGKILL and paused with SIGSTOP are {@code ReplicasIT}'s.
 */
class ReplicasTest {

  @RegisterExtension static final PostgresExtension postgres = new PostgresExtension();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final List<SignalboxServer> servers = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private String url;

  @AfterEach
  void stop() {
    servers.forEach(SignalboxServer::close);
  }

  private static Path write(Path dir, String name, String content) throws Exception {
    Path tmp = Files.createTempFile(dir, "." + name, ".tmp");
    Files.writeString(tmp, content);
    return Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String endpoints(int count) {
    StringBuilder yaml = new StringBuilder("clusters:\n  greeter:\n");
    for (int i = 1; i <= count; i++) {
      yaml.append("    - { address: 127.0.0.1, port: ").append(50000 + i).append(", zone: a }\n");
    }
    return yaml.toString();
  }

  private SignalboxServer start(String replicaId) throws Exception {
    Path config = write(dir, replicaId + ".yaml", """
        xds: { port: 0, address: 127.0.0.1 }
        admin: { port: 0, address: 127.0.0.1 }
        ha: { replicaId: %s, leaseDuration: 2s, renewInterval: 200ms }
        rollout: { settle: 200ms }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        clusters:
          - name: greeter
            lbPolicy: ROUND_ROBIN
        """.formatted(replicaId));
    SignalboxConfig cfg = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(config)).value();
    SignalboxServer server = SignalboxServer.start(config, cfg,
        new StoreSettings(url, dir.resolve("data-" + replicaId), postgres.user(), postgres.password()),
        Clock.systemUTC());
    servers.add(server);
    return server;
  }

  private List<SignalboxServer> three() throws Exception {
    url = postgres.newDatabase();
    write(dir, "endpoints.yaml", endpoints(2));
    return List.of(start("r1"), start("r2"), start("r3"));
  }

  private static SignalboxServer leader(List<SignalboxServer> servers) {
    List<SignalboxServer> leaders = servers.stream().filter(s -> s.replica().status().role().equals("leader")).toList();
    return leaders.size() == 1 ? leaders.get(0) : null;
  }

  /** What a replica serves, by type: the version strings clients are sent. */
  private static Map<XdsType, String> versions(SignalboxServer s) {
    Snapshot current = s.xds().current();
    Map<XdsType, String> v = new TreeMap<>();
    if (current != null) {
      for (XdsType t : XdsType.values()) {
        v.put(t, current.resources(t).version());
      }
    }
    return v;
  }

  private static long served(SignalboxServer s) {
    Snapshot current = s.xds().current();
    return current == null ? 0 : current.epoch();
  }

  private JsonNode get(SignalboxServer s, String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.adminPort() + path))
        .build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  @Test
  void oneLeaderAndEveryReplicaServesItsEpochsWithTheSameVersions() throws Exception {
    List<SignalboxServer> all = three();
    await().atMost(Duration.ofSeconds(30)).until(() -> leader(all) != null);
    SignalboxServer leader = leader(all);
    long term = leader.replica().status().term();
    await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().allMatch(s ->
        leader.replica().id().equals(s.replica().status().leaderId()) && s.replica().status().term() == term));
    await().atMost(Duration.ofSeconds(30)).until(() -> served(leader) > 0
        && all.stream().allMatch(s -> served(s) == served(leader)));
    assertThat(all).allSatisfy(s -> assertThat(versions(s)).isEqualTo(versions(leader)));

    long before = served(leader);
    write(dir, "endpoints.yaml", endpoints(3));

    await().atMost(Duration.ofSeconds(30)).until(() -> served(leader) > before
        && all.stream().allMatch(s -> served(s) == served(leader)));
    assertThat(all).allSatisfy(s -> {
      assertThat(versions(s)).isEqualTo(versions(leader));
      assertThat(s.xds().current().contentHash()).isEqualTo(leader.xds().current().contentHash());
      // A follower applied the stored delta to what it served: every byte as the leader sealed it,
      // and it knows what changed, as the leader does.
      assertThat(s.xds().current().toEnvelope()).isEqualTo(leader.xds().current().toEnvelope());
      assertThat(s.xds().current().resources(XdsType.ENDPOINT).changedSinceParent())
          .isEqualTo(leader.xds().current().resources(XdsType.ENDPOINT).changedSinceParent());
    });
    JsonNode status = get(all.get(1), "/api/v1/status");
    assertThat(status.get("replicaId").asText()).isEqualTo("r2");
    assertThat(status.get("leaderId").asText()).isEqualTo(leader.replica().id());
    assertThat(status.get("term").asLong()).isEqualTo(term);
    await().atMost(Duration.ofSeconds(10)).until(() -> get(all.get(2), "/api/v1/replicas").size() == 3);
    assertThat(get(all.get(2), "/api/v1/replicas").findValuesAsText("role"))
        .containsExactlyInAnyOrder("leader", "follower", "follower");
    // What the "no leader" alert sums: exactly one replica says it leads.
    assertThat(all.stream().mapToDouble(s -> metric(s, "signalbox_leader")).sum()).isEqualTo(1.0);
    assertThat(metric(leader, "signalbox_leader_term")).isEqualTo((double) term);
    await().atMost(Duration.ofSeconds(10)).until(() -> all.stream()
        .allMatch(s -> metric(s, "signalbox_replicas") == 3.0 && metric(s, "signalbox_replica_caught_up") == 1.0));
  }

  /** One unlabelled series of the replica's {@code /metrics}. */
  private double metric(SignalboxServer s, String name) {
    try {
      String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.adminPort() + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
      return body.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.split(" ")[1]))
          .findFirst().orElseThrow(() -> new AssertionError(name + " not in /metrics"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aDrainSentToAFollowerTakesEffectEverywhereAndAnyReplicaListsEveryClient() throws Exception {
    List<SignalboxServer> all = three();
    await().atMost(Duration.ofSeconds(30)).until(() -> leader(all) != null && all.stream().allMatch(s -> served(s) > 0));
    SignalboxServer leader = leader(all);
    List<SignalboxServer> followers = all.stream().filter(s -> s != leader).toList();

    try (AnsweringAdsClient a = new AnsweringAdsClient(followers.get(0).xdsPort(), "client-a", "web");
        AnsweringAdsClient b = new AnsweringAdsClient(followers.get(1).xdsPort(), "client-b", "web")) {
      HttpResponse<String> drained = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + followers.get(0).adminPort() + "/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/drain"))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(drained.statusCode()).as(drained.body()).isEqualTo(202);

      await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().allMatch(s -> state(s, 50001)
          == EndpointState.DRAINING));
      await().atMost(Duration.ofSeconds(30)).until(() -> {
        JsonNode clients = get(leader, "/api/v1/clients");
        return clients.findValuesAsText("nodeId").containsAll(List.of("client-a", "client-b"));
      });
      JsonNode clients = get(leader, "/api/v1/clients");
      Map<String, String> replicaOf = new TreeMap<>();
      clients.forEach(c -> replicaOf.put(c.get("nodeId").asText(), c.get("replicaId").asText()));
      assertThat(replicaOf).containsEntry("client-a", followers.get(0).replica().id())
          .containsEntry("client-b", followers.get(1).replica().id());
      // The drain is safe to remove only once the clients of every replica hold the draining epoch.
      await().atMost(Duration.ofSeconds(30)).until(() -> get(followers.get(1),
          "/api/v1/clusters/greeter/endpoints/127.0.0.1:50001/drain").get("clientsTotal").asInt() == 2);
      // What one client holds reads the same on a replica that does not serve it: the fleet's rows
      // and the epoch log, not the serving replica's memory.
      String config = "/api/v1/clients/client-a/config";
      await().atMost(Duration.ofSeconds(30)).until(() -> get(followers.get(1), config).path("types")
          .equals(get(followers.get(0), config).path("types")));
      JsonNode remote = get(followers.get(1), config);
      assertThat(remote.get("replicaId").asText()).isEqualTo(followers.get(0).replica().id());
      assertThat(remote.get("types").get(XdsType.ENDPOINT.typeUrl()).get("resources").findValuesAsText("name"))
          .containsExactly("greeter");
    }
  }

  private static EndpointState state(SignalboxServer s, int port) {
    Snapshot current = s.xds().current();
    return current == null ? null : current.endpoints().getOrDefault("greeter", List.of()).stream()
        .filter(e -> e.port() == port).map(e -> e.state()).findFirst().orElse(null);
  }

  @Test
  void whenTheLeaderGoesAnotherLeadsAndEpochsGoOn() throws Exception {
    List<SignalboxServer> all = new ArrayList<>(three());
    await().atMost(Duration.ofSeconds(30)).until(() -> leader(all) != null && all.stream().allMatch(s -> served(s) > 0));
    SignalboxServer first = leader(all);
    long term = first.replica().status().term();
    long epoch = served(first);

    first.close();
    servers.remove(first);
    all.remove(first);

    await().atMost(Duration.ofSeconds(30)).until(() -> leader(all) != null);
    SignalboxServer next = leader(all);
    assertThat(next.replica().status().term()).isGreaterThan(term);
    write(dir, "endpoints.yaml", endpoints(4));
    await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().allMatch(s -> served(s) > epoch
        && s.xds().current().endpoints().get("greeter").size() == 4));
  }
}
