package io.signalbox.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar on the embedded store, killed with SIGKILL while it publishes epochs, then started
 * again on the same data directory (DESIGN §6 "Crashes"): it comes up, its epoch never goes below
 * what it had reported, and a reconnecting client gets the newest stored epoch's endpoints.
 */
class CrashRecoveryIT {

  private static final String CLUSTER = "greeter";

  /** Shared by both tests only to pay for initdb once; each test works on a fresh or a used one. */
  @TempDir static Path dir;
  private final List<SignalboxProcess> started = new ArrayList<>();
  private final List<EdsWatcher> clients = new ArrayList<>();
  private Workspace ws;
  private int xdsPort;
  private Admin admin;

  @AfterEach
  void leaveNothingRunning() {
    clients.forEach(EdsWatcher::close);
    started.forEach(SignalboxProcess::close);
  }

  @Test
  void recoversTheOrphanedPostgresWhenOnlyTheJvmWasKilled() {
    start();
    long lastReported = publishManyEpochsThenCrash(process -> {
      process.killJvm();
      Optional<ProcessHandle> orphan = process.postmaster();
      assertThat(orphan).as("the embedded PostgreSQL outlives its JVM").isPresent();
      return orphan;
    });

    restartAndCheck(lastReported);
  }

  @Test
  void recoversWhenTheWholeProcessTreeWasKilled() {
    start();
    long lastReported = publishManyEpochsThenCrash(process -> {
      process.killTree();
      assertThat(process.postmaster()).as("nothing of the first run is left").isEmpty();
      return Optional.empty();
    });

    restartAndCheck(lastReported);
  }

  private interface Crash {
    /** Kills the process; returns the PostgreSQL it orphaned, if any. */
    Optional<ProcessHandle> kill(SignalboxProcess process);
  }

  private Optional<ProcessHandle> orphan = Optional.empty();
  private int lastWritten;

  private void start() {
    ws = new Workspace(dir);
    xdsPort = Workspace.freePort();
    admin = new Admin(Workspace.freePort());
    write(1);
    ws.write("signalbox.yaml", config(xdsPort, admin));
    SignalboxProcess process = launch();
    awaitReady(process);
  }

  private SignalboxProcess launch() {
    SignalboxProcess process = SignalboxProcess.start(ws.file("signalbox.yaml"), ws.file("data"), ws.file("signalbox.log"));
    started.add(process);
    return process;
  }

  private void awaitReady(SignalboxProcess process) {
    await("ready").atMost(Duration.ofSeconds(45)).ignoreExceptions()
        .failFast(() -> assertAlive(process))
        .until(() -> admin.get("/readyz").status() == 200);
  }

  private static void assertAlive(SignalboxProcess process) {
    assertThat(process.isAlive()).as("the process exited:\n%s", process.logTail()).isTrue();
  }

  /**
   * Rewrites the endpoint file (one endpoint's port changes each time) and waits for each epoch,
   * three times, then rewrites it once more and crashes at once, with that change in flight
   * (being read, validated or persisted). Returns the last epoch the API reported before the crash.
   * The file watcher reads a file only once it has held still for 100 ms, so a faster loop would
   * starve it rather than publish more.
   */
  private long publishManyEpochsThenCrash(Crash crash) {
    SignalboxProcess process = started.get(0);
    long lastReported = admin.epoch();
    for (int n = 0; n < 3; n++) {
      long before = lastReported;
      write(lastWritten + 1);
      lastReported = await("epoch after " + before).atMost(Duration.ofSeconds(10))
          .failFast(() -> assertAlive(process))
          .until(admin::epoch, epoch -> epoch > before);
    }
    write(lastWritten + 1);
    lastReported = Math.max(lastReported, admin.epoch());
    orphan = crash.kill(process);
    return lastReported;
  }

  private void restartAndCheck(long lastReported) {
    SignalboxProcess restarted = launch();
    await("status").atMost(Duration.ofSeconds(45)).ignoreExceptions()
        .failFast(() -> assertAlive(restarted))
        .until(() -> admin.get("/api/v1/status").status() == 200);
    List<Long> seen = new ArrayList<>();
    seen.add(admin.epoch());
    orphan.ifPresent(p -> assertThat(p.isAlive()).as("the orphaned PostgreSQL was shut down").isFalse());

    EdsWatcher client = EdsWatcher.watch(xdsPort, "crash-client", CLUSTER);
    clients.add(client);
    Set<String> expected = endpoints(lastWritten);
    await("client on the newest epoch").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      long epoch = admin.epoch();
      seen.add(epoch);
      long newest = admin.newestStoredEpoch();
      assertThat(epoch).isEqualTo(newest);
      assertThat(client.latest()).isEqualTo(new EdsWatcher.Received(Long.toString(newest), expected));
    });
    awaitReady(restarted);

    assertThat(seen).as("epochs reported after the restart").allSatisfy(e -> assertThat(e).isGreaterThanOrEqualTo(lastReported));
    assertThat(client.received()).as("every version the client was sent")
        .allSatisfy(r -> assertThat(Long.parseLong(r.version().split("\\.")[0])).isGreaterThanOrEqualTo(lastReported));

    restarted.stop();
    assertThat(restarted.postmaster()).as("a clean stop stops the embedded PostgreSQL").isEmpty();
  }

  private void write(int generation) {
    lastWritten = generation;
    ws.write("endpoints.yaml", """
        clusters:
          greeter:
            - { address: 127.0.0.1, port: 50051, zone: a }
            - { address: 127.0.0.1, port: %d, zone: a }
        """.formatted(51_000 + generation));
  }

  private static Set<String> endpoints(int generation) {
    return Set.of("127.0.0.1:50051", "127.0.0.1:" + (51_000 + generation));
  }

  static String config(int xdsPort, Admin admin) {
    return """
        xds: { port: %d }
        admin: { port: %d }
        store: { url: embedded, dataDir: ./data }
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
                    cluster: greeter
        clusters:
          - name: greeter
            connectTimeout: 1s
        """.formatted(xdsPort, admin.port());
  }
}
