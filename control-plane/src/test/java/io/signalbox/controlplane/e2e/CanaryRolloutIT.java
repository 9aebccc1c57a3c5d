package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.admin.RunningSignalbox;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.controlplane.xds.ClientStatus;
import io.signalbox.controlplane.xds.RecordingAdsClient;
import io.signalbox.store.EpochStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two waves of raw ADS clients: a change reaches the main wave only after every canary ACKed it
 * and the bake time passed; a change a canary NACKs is rolled back and never reaches the main wave.
 */
class CanaryRolloutIT {

  private static final String CDS = XdsType.CLUSTER.typeUrl();
  private static final Duration BAKE = Duration.ofSeconds(2);

  @TempDir Path dir;
  Workspace ws;
  SignalboxServer server;
  RecordingAdsClient canary;
  RecordingAdsClient main;
  int xdsPort;

  private String config(String lbPolicy) {
    return Workspace.config(xdsPort, lbPolicy, "{ settle: 500ms, waves: [ { name: canary, nodeClusters: [ canary ], bake: "
        + BAKE.toMillis() + "ms } ] }");
  }

  @BeforeEach
  void start() {
    ws = new Workspace(dir);
    xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", endpoints(50051));
    Path config = ws.write("signalbox.yaml", config("ROUND_ROBIN"));
    server = RunningSignalbox.serve(config);
    canary = connect("c1", "canary", r -> mentionsMaglev(r) ? "unsupported lb policy: MAGLEV" : null);
    main = connect("m1", "main", r -> null);
    await().atMost(Duration.ofSeconds(20)).until(() -> everyClientAt(server.reconciler().status().epoch()));
  }

  @AfterEach
  void stop() {
    canary.close();
    main.close();
    server.close();
  }

  private static String endpoints(int... ports) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    for (int port : ports) {
      out.append("    - { address: 127.0.0.1, port: ").append(port).append(", zone: a }\n");
    }
    return out.toString();
  }

  private RecordingAdsClient connect(String id, String nodeCluster, RecordingAdsClient.Verdict verdict) {
    RecordingAdsClient client = new RecordingAdsClient(server.xdsPort()).openSotw().autoAnswer(verdict);
    Node node = Node.newBuilder().setId(id).setCluster(nodeCluster).build();
    client.subscribe(node, CDS, List.of());
    client.subscribe(node, XdsType.ENDPOINT.typeUrl(), List.of("greeter"));
    return client;
  }

  private static boolean mentionsMaglev(DiscoveryResponse r) {
    return r.getResourcesList().stream().anyMatch(any -> {
      try {
        return any.is(Cluster.class) && any.unpack(Cluster.class).getLbPolicy() == Cluster.LbPolicy.MAGLEV;
      } catch (Exception e) {
        return false;
      }
    });
  }

  private ClientStatus status(String nodeId) {
    return server.xds().clients().stream().filter(c -> c.nodeId().equals(nodeId)).findFirst().orElse(null);
  }

  private boolean everyClientAt(long epoch) {
    ClientStatus c = status("c1");
    ClientStatus m = status("m1");
    return c != null && m != null && c.epoch() >= epoch && m.epoch() >= epoch;
  }

  @Test
  void aGoodChangeReachesTheMainWaveOnlyAfterTheCanariesAckedAndBaked() {
    long before = server.reconciler().status().epoch();
    ws.write("endpoints.yaml", endpoints(50051, 50052));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before);
    long epoch = server.reconciler().status().epoch();

    await().atMost(Duration.ofSeconds(10)).until(() -> status("c1").epoch() >= epoch);
    Instant canaryAcked = Instant.now();
    assertThat(status("m1").epoch()).as("main wave waits for the bake time").isLessThan(epoch);

    await().atMost(Duration.ofSeconds(20)).until(() -> status("m1").epoch() >= epoch);
    assertThat(Duration.between(canaryAcked, Instant.now())).isGreaterThanOrEqualTo(BAKE.minusMillis(300));
    assertThat(status("m1").wave()).isEqualTo("rest");
    assertThat(status("c1").wave()).isEqualTo("canary");
  }

  @Test
  void aChangeTheCanariesNackIsRolledBackAndNeverReachesTheMainWave() {
    long before = server.reconciler().status().epoch();
    ws.write("signalbox.yaml", config("MAGLEV"));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.reconciler().status().epoch() > before + 1);
    long rejected = before + 1;
    long rollback = server.reconciler().status().epoch();

    assertThat(server.store().epoch(rejected).orElseThrow().status()).isEqualTo(EpochStatus.REJECTED);
    // Nothing was SAFE yet: the cluster is restored from the epoch clients held before, not dropped.
    assertThat(server.reconciler().published().resources(XdsType.CLUSTER).get("greeter")).isNotNull();
    await().atMost(Duration.ofSeconds(20)).until(() -> everyClientAt(rollback));
    assertThat(main.sotw).noneMatch(CanaryRolloutIT::mentionsMaglev);
    assertThat(main.sotw).extracting(DiscoveryResponse::getVersionInfo).doesNotContain(Long.toString(rejected));
    assertThat(canary.sotw).anyMatch(CanaryRolloutIT::mentionsMaglev);

    // A client that (re)connects after the rollback is never sent the rejected epoch.
    try (RecordingAdsClient late = connect("c2", "canary", r -> null)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> status("c2") != null && status("c2").epoch() >= rollback);
      assertThat(late.sotw).noneMatch(CanaryRolloutIT::mentionsMaglev);
      assertThat(late.sotw).extracting(DiscoveryResponse::getVersionInfo).doesNotContain(Long.toString(rejected));
    }
  }
}
