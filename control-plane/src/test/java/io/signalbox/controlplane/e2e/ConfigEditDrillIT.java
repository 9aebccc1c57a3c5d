package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.signalbox.controlplane.SignalboxServer;
import io.signalbox.controlplane.config.ConfigLoader;
import io.signalbox.controlplane.config.SignalboxConfig;
import io.signalbox.controlplane.snapshot.Snapshot;
import io.signalbox.controlplane.snapshot.XdsType;
import io.signalbox.yaml.Parsed;
import io.signalbox.store.EpochRecord;
import io.signalbox.store.RejectedCandidate;
import io.signalbox.store.StoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault drill: the config file edited {@link DrillScale#configEdits} times in
 * {@link DrillScale#configEditWindow} (200 in 10 s in CI), by rename and in place (written in two
 * halves), every 10th edit invalid in one of four ways (a YAML syntax error, an unknown key, a
 * value out of range, a route to a cluster that does not exist). Each edit writes its generation
 * into greeter's connect timeout ({@code 1000 + generation} ms), so every published epoch says
 * which edit it came from. No epoch may come from an invalid edit (or from half a file: the config
 * watcher parses the bytes the file watcher settled), epochs follow the edits in order, every
 * invalid edit that was read is a recorded rejection, and the last edit is what is served.
 */
class ConfigEditDrillIT {

  private static final DrillScale SCALE = DrillScale.fromSystemProperties();
  private static final String[] INVALID_KINDS = {"YAML syntax error", "unknown key", "out of range",
      "route to a missing cluster"};

  @TempDir Path dir;
  private SignalboxServer server;
  private XdsRecorder client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Every 10th edit, counting from the 5th, so that the last one is valid. */
  private static boolean invalid(int generation) {
    return generation % 10 == 5;
  }

  @Test
  void publishesNoInvalidEditAndEndsOnTheLastOne() throws Exception {
    DrillReport report = new DrillReport("config-edit-drill", SCALE);
    Workspace ws = new Workspace(dir);
    int xdsPort = Workspace.freePort();
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50051, zone: a }
        """);
    FileEditor editor = new FileEditor(ws.file("signalbox.yaml"), g -> config(xdsPort, g), SCALE.seed(),
        Duration.ZERO, Duration.ZERO);
    editor.write();
    SignalboxConfig config = ((Parsed.Ok<SignalboxConfig>) ConfigLoader.parse(ws.file("signalbox.yaml"))).value();
    server = SignalboxServer.start(ws.file("signalbox.yaml"), config,
        new StoreSettings("memory", dir.resolve("data"), null, null), Clock.systemUTC());
    await("first epoch").atMost(Duration.ofSeconds(30)).until(() -> server.reconciler().status().epoch() > 0);
    long firstEpoch = server.reconciler().status().epoch();
    client = XdsRecorder.connect(xdsPort, "config-drill", List.of("greeter"));
    await("the client").atMost(Duration.ofSeconds(10)).until(() -> client.connectTimeoutMillis("greeter") != null);

    // Bursts with pauses longer than the watcher's quiet period (100 ms) between them, so some edits
    // (valid and invalid) are read and others are overwritten before they settle.
    Random random = new Random(SCALE.seed());
    long pace = SCALE.configEditWindow().toMillis() / SCALE.configEdits();
    Instant start = Instant.now();
    while (editor.generation() < SCALE.configEdits()) {
      int g = editor.write();
      boolean pause = random.nextInt(invalid(g) ? 2 : 8) == 0;
      // The first invalid edit settles whatever the machine's load, so at least one is read.
      long gap = g == 5 ? 500 : pause ? 110 + random.nextInt(40) : Math.max(1, pace / 5);
      TimeUnit.MILLISECONDS.sleep(gap);
    }
    Duration edited = Duration.between(start, Instant.now());
    int last = editor.generation();

    await("the last edit served").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> Long.valueOf(1000 + last).equals(client.connectTimeoutMillis("greeter")));
    Duration settled = Duration.between(start.plus(edited), Instant.now());

    List<Integer> published = publishedGenerations(firstEpoch);
    assertThat(published).as("the generation each epoch came from").isNotEmpty()
        .allSatisfy(g -> assertThat(invalid(g)).as("epoch from invalid edit %d", g).isFalse())
        .allSatisfy(g -> assertThat(g).as("an edit's generation (not a default or half a file)").isBetween(1, last))
        .isSorted().doesNotHaveDuplicates();
    assertThat(published.get(published.size() - 1)).isEqualTo(last);
    List<Integer> received = client.connectTimeouts("greeter").stream().map(ms -> (int) (ms - 1000)).toList();
    assertThat(received).as("the generations a client was sent").isSorted()
        .allSatisfy(g -> assertThat(published).contains(g));

    ClientHistory.assertVersionsNeverWentBack(List.of(client));
    List<RejectedCandidate> rejections = server.store().rejections(10_000);
    assertThat(rejections).as("invalid edits that were read are rejected").isNotEmpty()
        .allSatisfy(r -> assertThat(r.cause()).isEqualTo("config file changed"));
    assertThat(rejections).allSatisfy(r -> assertThat(String.join("\n", r.violations()))
        .containsAnyOf("[parse]", "conectTimeout", "maxEjectionPercent", "ghost"));

    report.line("%d config edits (%d by rename, %d in place, written in two halves) in %s, every 10th invalid "
        + "(%d): %s", last, editor.renames(), editor.inPlace(), DrillReport.seconds(edited), last / 10,
        String.join(", ", INVALID_KINDS));
    report.line("%d epochs published from them, none from an invalid edit or half a file, in edit order; "
        + "%d of the invalid edits were read and rejected (the others were overwritten before they settled); "
        + "a raw ADS client was sent %d of the epochs' clusters, all valid", published.size(), rejections.size(),
        received.size());
    report.line("last edit to a client holding it: %s", DrillReport.seconds(settled));
    report.write();
  }

  /** The generation each epoch from {@code firstEpoch} on came from, in epoch order. */
  private List<Integer> publishedGenerations(long firstEpoch) throws InvalidProtocolBufferException {
    List<EpochRecord> records = new ArrayList<>(server.store().epochs(10_000, Long.MAX_VALUE));
    records.sort(java.util.Comparator.comparingLong(EpochRecord::epoch));
    List<Integer> out = new ArrayList<>();
    for (EpochRecord r : records) {
      if (r.epoch() < firstEpoch) {
        continue;
      }
      Snapshot s = server.reconciler().snapshot(r.epoch());
      assertThat(s).as("epoch %d", r.epoch()).isNotNull();
      Cluster c = s.resources(XdsType.CLUSTER).get("greeter").any().unpack(Cluster.class);
      long millis = c.getConnectTimeout().getSeconds() * 1000 + c.getConnectTimeout().getNanos() / 1_000_000;
      out.add((int) (millis - 1000));
    }
    return out;
  }

  /** The config of one edit: greeter's connect timeout names the generation; every 10th is broken. */
  private static String config(int xdsPort, int generation) {
    String timeout = (1000 + generation) + "ms";
    String route = "greeter";
    String cluster = "    connectTimeout: " + timeout + "\n";
    String tail = "";
    if (invalid(generation)) {
      switch ((generation / 10) % INVALID_KINDS.length) {
        case 0 -> tail = "  - { name: broken, connectTimeout: 1s\n"; // unclosed flow mapping
        case 1 -> cluster = "    conectTimeout: " + timeout + "\n";
        case 2 -> cluster += "    maxEjectionPercent: 150\n";
        default -> route = "ghost";
      }
    }
    return """
        xds: { port: %d }
        admin: { port: 0 }
        store: { url: memory, retainEpochs: 100000 }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        listeners:
          - name: greeter
            apiListener: true
            routeConfig: greeter
        routeConfigs:
          - name: greeter
            virtualHosts:
              - name: greeter
                domains: [ "*" ]
                routes:
                  - match: { prefix: "" }
                    cluster: %s
        clusters:
          - name: greeter
        %s%s""".formatted(xdsPort, route, cluster, tail);
  }
}
