package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault drill: the built jar on its embedded PostgreSQL, SIGKILLed as a whole process tree (the
 * JVM and PostgreSQL, a power cut) at seeded random moments while its endpoint file is edited (by
 * rename and in place), then started again on the same data, round after round
 * ({@link DrillScale#crashRounds}). Before the first kill an operator rolled a cluster back,
 * drained an endpoint, overrode a weight, ejected an endpoint and froze publishing; the first
 * rounds run frozen, the rest not, and each unfrozen round ejects and re-weights again just before
 * the kill. After every restart:
 *
 * <ul>
 *   <li>no epoch regression: the served epoch is never below one a client held or the API
 *       reported; the epoch log is strictly decreasing, and a number never names two epochs
 *       ({@link EpochLedger});
 *   <li>the operator's intent is in force: the same freeze (actor, reason, time), the drain, the
 *       weight, the ejection with its back-off, and the rollback's quarantine ({@link IntentLedger});
 *   <li>grpc-xds traffic and a raw ADS client converge to the final file within 10 s of the
 *       restarted server being ready (frozen: stay on the frozen epoch);
 *   <li>no endpoint that left the file is ever offered again, and no RPC fails, all drill long.
 * </ul>
 */
class CrashDrillIT {

  private static final DrillScale SCALE = DrillScale.fromSystemProperties();
  private static final String TOKEN = "drill-operator-secret";
  private static final String ACTOR = "drill-operator";
  private static final List<String> CLUSTERS = List.of("greeter", "churn", "static");
  private static final int CHURN_SIZE = 4;
  private static final int CHURN_BASE = 40_000;
  private static final String EJECTED = "static/10.255.0.1:7001";
  private static final Duration CONVERGENCE = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final Random random = new Random(SCALE.seed());
  private final List<XdsRecorder> recorders = new ArrayList<>();
  private Workspace ws;
  private Backends backends;
  private int xdsPort;
  private Admin admin;
  private SignalboxProcess process;
  private Traffic traffic;
  private XdsRecorder recorder;
  private FileEditor editor;

  @AfterEach
  void leaveNothingRunning() throws Exception {
    if (editor != null) {
      editor.stop();
    }
    if (ws != null && java.nio.file.Files.exists(ws.file("signalbox.log"))) {
      java.nio.file.Files.createDirectories(Path.of("target", "drills"));
      java.nio.file.Files.copy(ws.file("signalbox.log"), Path.of("target", "drills", "crash-drill-signalbox.log"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    recorders.forEach(XdsRecorder::close);
    if (traffic != null) {
      traffic.close();
    }
    if (process != null) {
      process.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @Test
  void operatorIntentAndEveryPublishedEpochSurviveSigkillOfTheWholeProcessTree() throws Exception {
    DrillReport report = new DrillReport("crash-drill", SCALE);
    ws = new Workspace(dir);
    backends = Backends.start("b1", "b2", "b3", "b4");
    xdsPort = Workspace.freePort();
    admin = new Admin(Workspace.freePort(), TOKEN);
    editor = new FileEditor(ws.file("endpoints.yaml"), this::endpoints, SCALE.seed() + 1, Duration.ofMillis(20),
        Duration.ofMillis(250));
    editor.write();
    ws.write("signalbox.yaml", config("1s"));
    process = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"), ws.file("signalbox.log"));
    awaitReady();
    traffic = new Traffic(GrpcXdsClient.bootstrap(xdsPort, "drill-grpc").open("greeter"));
    connectRecorder();
    await("first traffic").atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> traffic.calls(12).equals(Set.of("b1", "b2", "b3", "b4")));
    traffic.startCalling();

    IntentLedger intent = new IntentLedger(admin, ACTOR);
    EpochLedger epochs = new EpochLedger();
    setIntent(intent);
    long frozenEpoch = admin.epoch();
    // An edit once frozen is validated and held, which the status reports (pendingPublish): the
    // event that shows a build saw it and published nothing.
    editor.write();
    await("the edit held by the freeze").atMost(Duration.ofSeconds(20))
        .until(() -> admin.status().get("pendingPublish").asBoolean());
    assertThat(admin.epoch()).as("nothing published once frozen").isEqualTo(frozenEpoch);
    Set<String> frozenBackends = Set.of("b1", "b2", "b3");
    Set<String> frozenChurn = churn(1);

    report.columns("round", "frozen", "edits before kill", "ops just before kill", "kill → ready", "start → ready",
        "ready → raw ADS client converged", "ready → grpc-xds reconnected",
        "reconnect → grpc-xds traffic converged", "epoch before → after");
    List<Duration> recoveries = new ArrayList<>();
    List<Duration> restarts = new ArrayList<>();
    List<Convergence> convergences = new ArrayList<>();
    for (int round = 1; round <= SCALE.crashRounds(); round++) {
      String when = "round " + round;
      boolean frozen = intent.frozen();
      int editsBefore = editor.generation();
      editor.start();
      TimeUnit.MILLISECONDS.sleep(300 + random.nextInt(2700)); // the seeded moment of the kill
      epochs.observe(admin);
      epochs.held(recorder.newestEpoch());
      long epochBefore = epochs.newestReported();
      boolean opsJustBefore = !frozen && round % 2 == 0;
      if (!frozen) {
        intent.eject(EJECTED);
        intent.weight("greeter/127.0.0.1:" + backends.port("b1"), 2 + random.nextInt(8));
        if (!opsJustBefore) {
          TimeUnit.MILLISECONDS.sleep(random.nextInt(1000));
        }
      }
      int editsAtKill = editor.generation();
      Instant killed = Instant.now();
      process.killTree();
      assertThat(process.postmaster()).as("%s: nothing of the killed run is left", when).isEmpty();
      // What the raw client ACKed up to the kill (ops just before it included) must survive it.
      epochs.held(recorder.newestEpoch());
      recorder.close();
      TimeUnit.MILLISECONDS.sleep(random.nextInt(1500)); // edits go on while it is down
      process = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"), ws.file("signalbox.log"));
      Instant started = Instant.now();
      TimeUnit.MILLISECONDS.sleep(random.nextInt(1000)); // ... and while it starts
      editor.stop();
      Instant lastEdit = Instant.now();
      int generation = editor.generation();
      awaitReady();
      Instant ready = Instant.now();
      Duration recovery = Duration.between(killed, ready);
      connectRecorder();
      epochs.assertNoRegression(admin, when);

      Convergence converged;
      if (frozen) {
        assertThat(admin.epoch()).as("%s: frozen, so nothing new is published", when).isEqualTo(frozenEpoch);
        converged = awaitServing(frozenBackends, frozenChurn, when + " (frozen)", max(ready, lastEdit));
      } else {
        converged = awaitServing(backendsOf(generation), churn(generation), when, max(ready, lastEdit));
      }
      assertQuarantined(when);
      intent.assertInForce(when);
      recoveries.add(recovery);
      restarts.add(Duration.between(started, ready));
      convergences.add(converged);
      report.row(round, frozen ? "yes" : "no", editsAtKill - editsBefore, opsJustBefore ? "yes" : "no", recovery,
          Duration.between(started, ready), converged.adsClient(), converged.grpcReconnect(),
          converged.grpcTraffic(), epochBefore + " → " + admin.epoch());
      if (round == SCALE.frozenRounds()) {
        intent.unfreeze();
        awaitServing(backendsOf(generation), churn(generation), when + " (unfrozen)", Instant.now());
      }
    }

    epochs.held(recorder.newestEpoch());
    assertThat(ClientHistory.endpointsOfferedAgain(recorders, "churn"))
        .as("churn endpoints offered again after a client had been sent an assignment without them").isEmpty();
    assertThat(ClientHistory.gone(recorders, "churn")).as("churn endpoints that left (removals exercised)")
        .isNotEmpty();
    ClientHistory.assertVersionsNeverWentBack(recorders);
    assertThat(traffic.failures()).as("RPCs that failed during the drill").isEmpty();
    process.stop();
    assertThat(process.postmaster()).as("a clean stop stops the embedded PostgreSQL").isEmpty();

    report.line("%d rounds (%d frozen), %d endpoint-file edits (%d by rename, %d in place), %d RPCs, none failed",
        SCALE.crashRounds(), Math.min(SCALE.frozenRounds(), SCALE.crashRounds()), editor.generation(),
        editor.renames(), editor.inPlace(), traffic.succeeded());
    report.line("SIGKILL of the JVM and PostgreSQL to /readyz 200 on the same data: %s (the restart alone: %s)",
        DrillReport.spread(recoveries), DrillReport.spread(restarts));
    report.line("ready to a raw ADS client (connecting at once) on the final file (or the frozen epoch): %s",
        DrillReport.spread(convergences.stream().map(Convergence::adsClient).toList()));
    report.line("ready to grpc-xds reconnecting (grpc-java's own back-off, 1 s growing 1.6x): %s",
        DrillReport.spread(convergences.stream().map(Convergence::grpcReconnect).toList()));
    report.line("grpc-xds reconnected (or ready, if later) to its traffic on the final file: %s",
        DrillReport.spread(convergences.stream().map(Convergence::grpcTraffic).toList()));
    report.line("%d distinct epochs seen in the log, newest %d; %d ejections of one endpoint (back-off kept)",
        epochs.distinctEpochs(), epochs.newestReported(), intent.ejections());
    report.write();
    assertThat(convergences).as("convergence after each restart, within %s", CONVERGENCE).allSatisfy(c -> {
      assertThat(c.adsClient()).isLessThanOrEqualTo(CONVERGENCE);
      assertThat(c.grpcTraffic()).isLessThanOrEqualTo(CONVERGENCE);
    });
  }

  /**
   * Before the first kill: a config change rolled back, a drain, a weight, an ejection, a freeze.
   */
  private void setIntent(IntentLedger intent) {
    long good = admin.epoch();
    ws.write("signalbox.yaml", config("2s"));
    await("the config change").atMost(Duration.ofSeconds(20))
        .until(() -> Long.valueOf(2000).equals(recorder.connectTimeoutMillis("greeter")));
    var answer = admin.sendJson("POST", "/api/v1/rollback",
        "{\"to\": " + good + ", \"reason\": \"drill: the 2s timeout is bad\"}", 202);
    assertThat(answer.get("restored").asInt()).as("the greeter cluster is restored").isEqualTo(1);
    assertQuarantined("after the rollback");

    intent.drain("greeter/127.0.0.1:" + backends.port("b4"), "drill: kernel upgrade");
    intent.weight("greeter/127.0.0.1:" + backends.port("b1"), 2);
    intent.eject(EJECTED);
    await("b4 drained").atMost(Duration.ofSeconds(20)).ignoreExceptions()
        .until(() -> traffic.calls(12).equals(Set.of("b1", "b2", "b3")));
    await("the intent published").atMost(Duration.ofSeconds(20)).ignoreExceptions()
        .untilAsserted(() -> intent.assertInForce("before the freeze"));
    intent.freeze("drill: change window");
  }

  /** The rolled-back cluster keeps the version of the rollback's target (1 s), not the file's 2 s. */
  private void assertQuarantined(String when) {
    await(when + ": the rollback in force").atMost(Duration.ofSeconds(20))
        .untilAsserted(() -> assertThat(recorder.connectTimeoutMillis("greeter"))
            .as("%s: greeter's connect timeout as rolled back", when).isEqualTo(1000L));
  }

  /**
   * How long clients took to be served the expected state after a restart: a raw ADS client that
   * connects as soon as the server is ready, and the grpc-xds client, whose reconnection waits for
   * grpc-java's own back-off (it is not Signalbox's to shorten) and is timed apart.
   */
  record Convergence(Duration adsClient, Duration grpcReconnect, Duration grpcTraffic) {}

  /**
   * Waits until the raw client is offered {@code churn} and greeter's {@code backendNames}, and
   * grpc-xds traffic reaches exactly {@code backendNames}; times each from {@code from}.
   */
  private Convergence awaitServing(Set<String> backendNames, Set<String> churn, String when, Instant from) {
    Set<String> greeter = new TreeSet<>();
    backendNames.forEach(b -> greeter.add("127.0.0.1:" + backends.port(b)));
    Instant[] ads = new Instant[1];
    Instant[] grpc = new Instant[1];
    await(when + ": converged").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> {
          assertThat(recorder.error()).as("the raw client's stream").isNull();
          var g = recorder.latest("greeter");
          var c = recorder.latest("churn");
          if (ads[0] == null && g != null && c != null && g.serving().equals(greeter) && c.serving().equals(churn)) {
            ads[0] = Instant.now();
          }
          Set<String> reached = traffic.calls(12);
          if (grpc[0] == null && reached.equals(backendNames)) {
            grpc[0] = Instant.now();
          }
          assertThat(g == null ? null : g.serving()).as("%s: greeter endpoints offered", when).isEqualTo(greeter);
          assertThat(c == null ? null : c.serving()).as("%s: churn endpoints offered", when).isEqualTo(churn);
          assertThat(reached).as("%s: backends grpc-xds calls", when).isEqualTo(backendNames);
          assertThat(grpcConnectedAt()).as("%s: grpc-xds reconnected", when).isNotEqualTo(Instant.EPOCH);
        });
    Instant reconnected = grpcConnectedAt();
    return new Convergence(Duration.between(from, ads[0]), positive(Duration.between(from, reconnected)),
        positive(Duration.between(max(from, reconnected), grpc[0])));
  }

  /** When the grpc-xds client's stream to this process was opened, as it recorded it; EPOCH if none is. */
  private Instant grpcConnectedAt() {
    Instant newest = Instant.EPOCH;
    for (var c : admin.getJson("/api/v1/clients?q=drill-grpc")) {
      newest = max(newest, Instant.parse(c.get("connectedAt").asText()));
    }
    return newest;
  }

  private static Duration positive(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  private void connectRecorder() {
    recorder = XdsRecorder.connect(xdsPort, "drill-recorder", CLUSTERS);
    recorders.add(recorder);
  }

  private void awaitReady() {
    SignalboxProcess p = process;
    await("ready").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .failFast(() -> assertThat(p.isAlive()).as("the process exited:\n%s", p.logTail()).isTrue())
        .until(() -> admin.get("/readyz").status() == 200);
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /** Greeter's backends at {@code generation}, but b4, which the operator drains. */
  private Set<String> backendsOf(int generation) {
    Set<String> out = new TreeSet<>(Set.of("b1"));
    Random r = new Random(SCALE.seed() * 1_000_003L + generation);
    if (generation == 1 || r.nextInt(10) < 6) {
      out.add("b2");
    }
    if (generation == 1 || r.nextInt(10) < 6) {
      out.add("b3");
    }
    return out;
  }

  /** A sliding window: each generation drops its oldest churn endpoint and adds a new one. */
  private static Set<String> churn(int generation) {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < CHURN_SIZE; i++) {
      out.add("127.0.0.1:" + (CHURN_BASE + generation + i));
    }
    return out;
  }

  private String endpoints(int generation) {
    StringBuilder out = new StringBuilder("clusters:\n  greeter:\n");
    Set<String> names = new TreeSet<>(backendsOf(generation));
    names.add("b4");
    names.forEach(b -> out.append("    - { address: 127.0.0.1, port: ").append(backends.port(b))
        .append(", zone: a }\n"));
    out.append("  churn:\n");
    churn(generation).forEach(e -> out.append("    - { address: 127.0.0.1, port: ")
        .append(e.substring(e.indexOf(':') + 1)).append(", zone: a }\n"));
    out.append("  static:\n");
    for (int port = 7001; port <= 7003; port++) {
      out.append("    - { address: 10.255.0.1, port: ").append(port).append(", zone: a }\n");
    }
    return out.toString();
  }

  private String config(String greeterTimeout) {
    return """
        xds: { port: %d }
        admin:
          port: %d
          tokens: [ { name: %s, role: operator, sha256: %s } ]
        store: { url: embedded, dataDir: ./data }
        sources:
          files: [ ./endpoints.yaml ]
        reconcile: { debounce: 20ms, maxDelay: 200ms }
        rollout: { settle: 1s }
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
                    cluster: greeter
        clusters:
          - name: greeter
            connectTimeout: %s
            drainTimeout: 1s
            massRemovalPercent: 100
          - name: churn
            connectTimeout: 1s
            drainTimeout: 1s
            massRemovalPercent: 100
          - name: static
            connectTimeout: 1s
            maxEjectionPercent: 50
        """.formatted(xdsPort, admin.port(), ACTOR, sha256(TOKEN), greeterTimeout);
  }

  private static String sha256(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
